/** Real transcripts (converted to OpenAI format in /work/main/test/fixtures) compress to valid output. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { parseMessages } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { roughCounter } from "./fixtures.js";

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures");
const files = existsSync(fixturesDir) ? readdirSync(fixturesDir).filter((f) => f.endsWith(".json")).sort() : [];

function loadTranscript(file: string) {
  const raw: unknown = JSON.parse(readFileSync(join(fixturesDir, file), "utf8"));
  const list = Array.isArray(raw) ? raw : (raw as { messages?: unknown }).messages;
  return Array.isArray(list) ? parseMessages(list, file) : undefined;
}

describe.skipIf(files.length === 0)("real transcripts", () => {
  for (const file of files) {
    it(`compresses ${file} to a valid conversation that keeps its last user message`, async () => {
      const messages = loadTranscript(file);
      if (messages === undefined) return; // not a transcript (e.g. a config fixture)
      const engine = new ContextCompressor({ compression: { threshold_tokens: 20_000 }, tokenCounter: roughCounter });
      const out = await engine.compress(messages, { force: true });
      const before = validateConversation(messages);
      const after = validateConversation(out);
      if (before.length === 0) expect(after).toEqual([]);
      else expect(after.length).toBeLessThanOrEqual(before.length);
      const lastUser = [...messages].reverse().find((m) => m.role === "user");
      if (lastUser && typeof lastUser.content === "string") {
        expect(out.some((m) => typeof m.content === "string" && m.content.includes(lastUser.content as string))).toBe(true);
      }
      expect(out.length).toBeLessThanOrEqual(messages.length + 1);
    });
  }
});
