/**
 * The exact counter gives tiktoken's own counts: js-tiktoken (a dev dependency, the reference) and
 * TiktokenCounter agree on every text of the bundled fixtures and, when ../shared/corpus exists, of
 * every corpus transcript the importers read; long unbroken runs count exactly and quickly.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { importTranscriptFile } from "../../src/importers/index.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";
import { messageTokenParts } from "../../src/tokens/rough.js";
import { CORPUS_DIR, FIXTURES_DIR, HAS_CORPUS } from "../importers/helpers.js";

const reference = new Tiktoken(o200kRanks);
const tiktokenCount = (text: string) => reference.encode(text, [], []).length;
const counter = new TiktokenCounter();

/** Texts of `messages` whose counts differ between the two tokenizers (empty when all agree). */
function disagreements(messages: ChatMessage[]): string[] {
  const texts = messages.flatMap((m) => messageTokenParts(m).texts);
  expect(texts.length).toBeGreaterThan(0);
  return texts.filter((text) => counter.count(text) !== tiktokenCount(text)).map((text) => text.slice(0, 80));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("TiktokenCounter against js-tiktoken", () => {
  const fixtures = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith(".json"));

  it.each(fixtures)("counts every message text of fixture %s exactly as tiktoken does", (file) => {
    const messages = JSON.parse(readFileSync(join(FIXTURES_DIR, file), "utf8")) as ChatMessage[];
    expect(disagreements(messages)).toEqual([]);
  });

  it.skipIf(!HAS_CORPUS)("counts every message text of every importable corpus transcript exactly as tiktoken does", async () => {
    let imported = 0;
    for (const path of filesUnder(CORPUS_DIR)) {
      const result = await importTranscriptFile(path).catch(() => undefined);
      if (result === undefined || result.messages.length === 0) continue;
      imported += 1;
      expect({ path, wrong: disagreements(result.messages) }).toEqual({ path, wrong: [] });
    }
    expect(imported).toBeGreaterThan(5);
  }, 120_000);

  it("counts random text of mixed scripts, spaces and punctuation exactly as tiktoken does", () => {
    const alphabet = fc.constantFrom(..."aZ09 _-+/=\n\t.,'’éü中文한국カナ🎉<|>endoftext".split(""), "\u0301", "'s", "  ", "\r\n");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 200 }), (chars) => {
        const text = chars.join("");
        expect(counter.count(text)).toBe(tiktokenCount(text));
      }),
      { numRuns: 400 },
    );
  });

  it("counts special-token strings as the plain text tiktoken sees", () => {
    for (const text of ["<|endoftext|>", "a <|im_start|>user\nhi<|im_end|>", "<|fim_prefix|>"]) expect(counter.count(text)).toBe(tiktokenCount(text));
  });

  it("counts long unbroken runs without cutting them, exactly as tiktoken does", () => {
    for (const run of ["abcdefgh".repeat(100), "a".repeat(1_500), "=".repeat(1_000), " ".repeat(1_000), "中文".repeat(300), "0123456789".repeat(100)]) {
      expect(counter.count(run)).toBe(tiktokenCount(run));
    }
  });

  it("counts a 1 MB message of one unbroken run (no quadratic merge)", () => {
    // tiktoken's merge rescans the piece after each merge: a 1 MB piece would take hours there.
    expect(counter.count("a".repeat(1_000_000))).toBe(125_000);
  });
});
