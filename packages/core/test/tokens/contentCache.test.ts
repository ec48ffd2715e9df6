import { readFileSync } from "node:fs";
import { join } from "node:path";
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
});
