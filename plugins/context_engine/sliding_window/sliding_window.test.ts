import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createContextHost, validateConversation, type ChatMessage } from "@context-engine/core";
import SlidingWindowEngine, { splitTurns } from "./index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** A conversation of `turns` turns, each a user ask, an assistant tool call, its result and a reply. */
function conversation(turns: number, outputChars = 4_000): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: `Task ${t}: run the tests` });
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${t}`, type: "function", function: { name: "terminal", arguments: JSON.stringify({ command: "pytest" }) } }] });
    messages.push({ role: "tool", tool_call_id: `call_${t}`, content: `run ${t}: ` + "x".repeat(outputChars) });
    messages.push({ role: "assistant", content: `Turn ${t} done.` });
  }
  return messages;
}

describe("sliding_window directory engine", () => {
  it("splits a conversation into turns that each start with a user message", () => {
    const turns = splitTurns(conversation(3).slice(1));
    expect(turns).toHaveLength(3);
    expect(turns.every((t) => t[0]!.role === "user")).toBe(true);
  });

  it("drops the oldest whole turns until the estimate is under half the threshold", async () => {
    const engine = new SlidingWindowEngine({ model: { model: "m", contextLength: 20_000 } });
    // threshold: 64,000-token minimum reaches the 20,000 window, so 85 % = 17,000; target 8,500 tokens ≈ 8 turns of ~1,000
    const input = conversation(40);
    const output = await engine.compress(input);
    expect(output[0]).toBe(input[0]);
    expect(output.length).toBeLessThan(input.length);
    expect(output.at(-1)).toBe(input.at(-1));
    expect(output[1]!.role).toBe("user");
    expect(validateConversation(output)).toEqual([]);
    expect(engine.compressionCount).toBe(1);
  });

  it("returns the conversation unchanged when it already fits", async () => {
    const engine = new SlidingWindowEngine();
    const input = conversation(2, 10);
    expect(await engine.compress(input)).toBe(input);
    expect(engine.compressionCount).toBe(0);
  });

  it("always keeps the newest turn, even when it alone is over the target", async () => {
    const engine = new SlidingWindowEngine({ model: { model: "m", contextLength: 20_000 } });
    const input = [...conversation(2, 10), ...conversation(1, 200_000).slice(1)];
    const output = await engine.compress(input);
    expect(output.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
  });

  it("resolves from the repository's plugins/context_engine/ folder (step 1)", async () => {
    const host = await createContextHost({ config: { context: { engine: "sliding_window" } } as never, rootDir: repoRoot });
    expect([host.engine.name, host.engineSource]).toEqual(["sliding_window", "directory"]);
    expect(host.warnings).toEqual([]);
  });

  it("triggers at the configured compression.threshold when a host builds it", async () => {
    const config = { context: { engine: "sliding_window" }, model: { default: "m", context_length: 200_000 }, compression: { threshold: 0.7 } } as never;
    const host = await createContextHost({ config, rootDir: repoRoot });
    expect(host.engine.thresholdTokens).toBe(140_000);
    expect([host.engine.shouldCompress(139_999), host.engine.shouldCompress(140_000)]).toEqual([false, true]);
  });

  it("shrinks to the share of the threshold its sliding_window: section sets, checked by the schema it declares", async () => {
    const host = await createContextHost({ config: { context: { engine: "sliding_window" }, sliding_window: { target_share: 0.25 } } as never, rootDir: repoRoot });
    expect([(host.engine as SlidingWindowEngine).targetShare, host.warnings]).toEqual([0.25, []]);
    expect(new SlidingWindowEngine().targetShare).toBe(0.5);
    await expect(createContextHost({ config: { context: { engine: "sliding_window" }, sliding_window: { target_share: 2 } } as never, rootDir: repoRoot })).rejects.toThrow(/sliding_window\.target_share: must be less than 1/);
  });
});
