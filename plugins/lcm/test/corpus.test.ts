import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseMessages, validateConversation } from "../src/core.js";
import { makeEngine, parseResult, tempDir } from "./support.js";

const FIXTURE = fileURLToPath(new URL("../../../test/fixtures/python-to-rust-port.json", import.meta.url));

describe.skipIf(!existsSync(FIXTURE))("a real agent transcript (python-to-rust-port)", () => {
  it("goes through ingest, compaction, assembly, search, expansion and the next turn", async () => {
    const transcript = parseMessages(JSON.parse(readFileSync(FIXTURE, "utf8")), FIXTURE);
    const input = [{ role: "system" as const, content: "You are a coding agent." }, ...transcript];
    const { dir, cleanup } = tempDir();
    const engine = makeEngine(dir, { contextLength: 8_000, config: { leaf_chunk_tokens: 2_000, leaf_target_tokens: 300, condensed_target_tokens: 400 } });
    try {
      const before = engine.tokenCounter.countMessages(input);
      expect(engine.shouldCompress(before)).toBe(true);
      const output = await engine.compress(input);
      expect(engine.tokenCounter.countMessages(output)).toBeLessThan(before);
      expect(validateConversation(output)).toEqual([]);
      expect(output[0]).toBe(input[0]);
      expect(output.slice(-8)).toEqual(input.slice(-8));

      // lossless: the stored history is the transcript, verbatim
      expect(engine.store.getMessagesBySeq("default", 1, 10_000).map((m) => m.message)).toEqual(transcript);

      // a word from the first request, compacted away, is found and traced to its summary
      const hit = parseResult(await engine.handleToolCall("lcm_grep", { pattern: "Justfile", scope: "messages", limit: 100 }));
      const early = hit.matches.find((m: { seq: number }) => m.seq === 1);
      expect(early?.coveredBy).toMatch(/^sum_/);
      const expanded = parseResult(await engine.handleToolCall("lcm_describe", { id: early.coveredBy }));
      expect(expanded.inContext).toBe(true);

      // the next turn: the host sends lcm's output back with a new message
      const next = [...output, { role: "user" as const, content: "Also add a CHANGELOG entry." }];
      expect(await engine.ingest(next)).toHaveLength(1);
      const again = await engine.compress(next, { force: true });
      expect(validateConversation(again)).toEqual([]);
      expect(again[again.length - 1]).toEqual({ role: "user", content: "Also add a CHANGELOG entry." });
      expect(engine.store.messageCount("default")).toBe(transcript.length + 1);
    } finally {
      engine.close();
      cleanup();
    }
  });
});
