import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { TokenContentCache } from "../../src/tokens/contentCache.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";
import { FIXTURES_DIR } from "../importers/helpers.js";

/** A TiktokenCounter that counts how often the tokenizer runs. */
class CallCountingCounter extends TiktokenCounter {
  calls = 0;
  override count(text: string): number {
    this.calls += 1;
    return super.count(text);
  }
}

describe("the memoized counter's content cache", () => {
  it("counts a fresh JSON.parse copy of a counted conversation without tokenizing its long texts again", () => {
    const raw = readFileSync(join(FIXTURES_DIR, "python-to-rust-port.json"), "utf8");
    const counter = new CallCountingCounter();
    const first = counter.countMessages(JSON.parse(raw) as ChatMessage[]);
    const callsFirst = counter.calls;
    const second = counter.countMessages(JSON.parse(raw) as ChatMessage[]);
    expect(second).toBe(first);
    const shortTexts = (JSON.parse(raw) as ChatMessage[]).length * 3; // under minChars: counted directly, at most a few a message
    expect(counter.calls - callsFirst).toBeLessThan(Math.min(callsFirst, shortTexts));
  });

  it("makes no tokenizer calls for a re-parsed conversation whose texts are all long", () => {
    const counter = new CallCountingCounter();
    const messages: ChatMessage[] = [
      { role: "user", content: "Please port the tokenizer module to Rust, keeping every public name and its tests." },
      { role: "assistant", content: "I will start with the byte-pair merge and its heap; the vocabulary loads lazily." },
    ];
    const total = counter.countMessages(messages);
    counter.calls = 0;
    expect(counter.countMessages(structuredClone(messages))).toBe(total);
    expect(counter.calls).toBe(0);
  });

  it("evicts the least recently used text once the entry bound is passed", () => {
    const cache = new TokenContentCache({ maxEntries: 2, minChars: 1 });
    cache.set("alpha", 1);
    cache.set("beta", 1);
    cache.get("alpha");
    cache.set("gamma", 2);
    expect(cache.size).toBe(2);
    expect(cache.get("beta")).toBeUndefined();
    expect(cache.get("alpha")).toBe(1);
    expect(cache.get("gamma")).toBe(2);
  });

  it("evicts once the total characters of kept texts pass the character bound", () => {
    const cache = new TokenContentCache({ maxChars: 10, minChars: 1 });
    cache.set("aaaaaa", 1);
    cache.set("bbbbbb", 1);
    expect(cache.chars).toBeLessThanOrEqual(10);
    expect(cache.get("aaaaaa")).toBeUndefined();
    expect(cache.get("bbbbbb")).toBe(1);
  });

  it("does not keep texts shorter than minChars", () => {
    const cache = new TokenContentCache({ minChars: 8 });
    cache.set("short", 1);
    expect(cache.size).toBe(0);
  });

  it("tells apart long texts of one length that differ in a single char, wherever it is", () => {
    const base = "x".repeat(1_000);
    const texts = [0, 1, 33, 500, 501, 998, 999].map((at) => `${base.slice(0, at)}y${base.slice(at + 1)}`);
    const cache = new TokenContentCache();
    texts.forEach((text, i) => cache.set(text, i + 1));
    for (const [i, text] of texts.entries()) expect(cache.get(text) ?? i + 1).toBe(i + 1); // its own count, or dropped
    expect(cache.get(base)).toBeUndefined();
    expect(cache.chars).toBe(cache.size * 1_000);
  });

  it("finds every text that differs from others only between the chars a lookup samples, up to a few of them", () => {
    const base = "x".repeat(1_000);
    const texts = ["a", "b", "c", "d"].map((c) => `${base.slice(0, 33)}${c}${base.slice(34)}`); // index 33: between samples
    const cache = new TokenContentCache();
    texts.forEach((text, i) => cache.set(text, i + 1));
    expect(texts.map((text) => cache.get(text))).toEqual([1, 2, 3, 4]);
    expect(cache.size).toBe(4);
  });

  it("never answers another text's count and keeps its bounds and totals under any sequence of sets and gets", () => {
    const base = "x".repeat(300);
    // Texts that differ in the middle (sharing a fingerprint or not) and at the ends, of a few lengths.
    const text = fc.tuple(fc.integer({ min: 0, max: 299 }), fc.constantFrom("a", "b", "c"), fc.constantFrom(0, 1, 200)).map(([at, c, cut]) => `${base.slice(0, at)}${c}${base.slice(at + 1)}`.slice(cut));
    const operation = fc.tuple(fc.boolean(), text, fc.integer({ min: 1, max: 50 }));
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80 }), fc.integer({ min: 2, max: 12 }), (operations, maxEntries) => {
        const cache = new TokenContentCache({ maxEntries, maxChars: 2_000 });
        const lastSet = new Map<string, number>();
        for (const [isSet, t, tokens] of operations) {
          if (isSet) {
            cache.set(t, tokens);
            lastSet.set(t, tokens);
          } else {
            expect([undefined, lastSet.get(t)]).toContain(cache.get(t));
          }
          expect(cache.size).toBeLessThanOrEqual(maxEntries);
          expect(cache.chars).toBeLessThanOrEqual(2_000);
        }
        const kept = [...lastSet.keys()].filter((t) => cache.get(t) !== undefined);
        expect(cache.size).toBe(kept.length);
        expect(cache.chars).toBe(kept.reduce((sum, t) => sum + t.length, 0));
      }),
      { numRuns: 500 },
    );
  });
});
