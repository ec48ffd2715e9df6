import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { validateConversation } from "../src/core.js";
import { isLcmArtifact } from "../src/assemble.js";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

/** A build log of about `tokens` tokens with one distinctive line in its middle. */
function buildLog(tokens: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < tokens * 4; i++) lines.push(i === 1500 ? "error[E0308]: mismatched types in src/quasar_engine.rs:88" : `line ${i}: compiling crate number ${i}`);
  return lines.join("\n");
}

describe("huge tool outputs", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  const log = buildLog(30_000);
  const input: ChatMessage[] = [
    ...conversation(10),
    { role: "user", content: "Build the workspace." },
    { role: "assistant", content: null, tool_calls: [{ id: "build_1", type: "function", function: { name: "cargo_build", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "build_1", content: log },
    { role: "assistant", content: "The build failed; looking at the error." },
  ];
  beforeEach(() => {
    dir = tempDir();
    engine = makeEngine(dir.dir, { contextLength: 60_000, config: { externalize_tool_output_tokens: 2_000 } });
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });
  const call = async (name: string, args: unknown) => parseResult(await engine.handleToolCall(name, args));

  it("keep a short preview and the stored message's id in context; the full text stays reachable", async () => {
    const output = await engine.compress(input, { force: true });
    expect(validateConversation(output)).toEqual([]);
    const result = output.find((m) => m.role === "tool" && m.tool_call_id === "build_1")!;
    const stored = engine.store.getMessagesBySeq("default", 1, 1_000).find((m) => m.message.content === log)!;
    expect(typeof result.content).toBe("string");
    expect(result.content).toContain(stored.id);
    expect(result.content).toContain("lcm_expand");
    expect(result.content).toContain("line 0: compiling");
    expect(engine.tokenCounter.countMessages([result])).toBeLessThan(700);
    expect(engine.tokenCounter.countMessages(output)).toBeLessThan(engine.targetTokens);
    // the full text: found by lcm_grep, read by lcm_expand
    const found = await call("lcm_grep", { pattern: "quasar_engine", scope: "messages" });
    expect(found.matches.map((m: { id: string }) => m.id)).toEqual([stored.id]);
    let text = "";
    for (let offset: number | null = 0; offset !== null; ) {
      const page = await call("lcm_expand", { id: stored.id, offset, maxTokens: 20_000 });
      text += page.text;
      offset = page.nextOffset;
    }
    expect(text).toContain(log);
    // the preview is lcm's own: sending the output back with a new turn stores only the turn
    expect(isLcmArtifact(result)).toBe(true);
    expect(await engine.ingest([...output, { role: "user", content: "Fix it." }])).toHaveLength(1);
    expect(engine.store.messageCount("default")).toBe(input.length);
  });

  it("leave outputs under the size in context as they are", async () => {
    const output = await engine.compress([...conversation(10), { role: "user", content: "Go on." }], { force: true });
    const results = output.filter((m) => m.role === "tool");
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(isLcmArtifact(r)).toBe(false);
  });
});
