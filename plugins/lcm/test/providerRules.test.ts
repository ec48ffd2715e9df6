import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { STUB_TOOL_RESULT, validateConversation } from "../src/core.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const call = (id: string, name = "run"): ChatMessage => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }] });
const result = (id: string, text: string): ChatMessage => ({ role: "tool", tool_call_id: id, content: text });

describe("lcm's output follows the provider rules", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("renames a tool call id used again later (a host that restarted its counter), so no id repeats, and stores nothing twice", async () => {
    const engine = makeEngine(dir, { config: { fresh_tail: 10 } });
    // the host's counter restarted: call_0 and call_1 are used a second time, both uses in the fresh tail
    const round = (label: string): ChatMessage[] => [
      { role: "user", content: `Run the checks (${label}).` },
      call("call_0"),
      result("call_0", `${label} run of call_0: all green`),
      call("call_1"),
      result("call_1", `${label} run of call_1: all green`),
      { role: "assistant", content: `Both checks pass (${label}).` },
    ];
    const input = [...conversation(20), ...round("first"), ...round("second")];
    const output = await engine.compress(input, { force: true });
    expect(validateConversation(output)).toEqual([]);
    // the newest use keeps its id, so a result the agent still sends for it finds its call
    const answered = output.find((m) => m.role === "tool" && m.content === "second run of call_1: all green");
    expect(answered?.tool_call_id).toBe("call_1");
    const earlier = output.find((m) => m.role === "tool" && m.content === "first run of call_1: all green");
    expect(earlier?.tool_call_id).not.toBe("call_1");
    // the stored history keeps every message as sent
    expect(engine.store.getMessagesBySeq("default", 1, 1_000).map((m) => m.message)).toEqual(input.slice(1));
    // sending the output back with a new turn stores only that turn
    expect(await engine.ingest([...output, { role: "user", content: "Thanks." }])).toHaveLength(1);
    engine.close();
  });

  it("leaves a pending last tool call without a stub: the agent is about to run it", async () => {
    const engine = makeEngine(dir);
    const input = [...conversation(30), { role: "user" as const, content: "Now run the linter." }, call("lint_now", "lint")];
    const output = await engine.compress(input);
    expect(engine.compressionCount).toBe(1);
    expect(output.at(-1)).toEqual(input.at(-1));
    expect(output.some((m) => m.role === "tool" && m.content === STUB_TOOL_RESULT)).toBe(false);
    expect(validateConversation(output, { allowPendingToolCalls: true })).toEqual([]);
    // the result arrives: it pairs with the call, nothing was stored twice
    const next = [...output, result("lint_now", "no lint errors")];
    const after = await engine.compress(next, { force: true });
    expect(validateConversation(after)).toEqual([]);
    expect(after.at(-1)).toEqual(result("lint_now", "no lint errors"));
    expect(engine.store.messageCount("default")).toBe(input.length);
    engine.close();
  });

  it("keeps the answered part of a pending parallel call group as it is", async () => {
    const engine = makeEngine(dir);
    const group: ChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "p1", type: "function", function: { name: "a", arguments: "{}" } },
        { id: "p2", type: "function", function: { name: "b", arguments: "{}" } },
      ],
    };
    const input = [...conversation(30), { role: "user" as const, content: "Run both." }, group, result("p1", "a done")];
    const output = await engine.compress(input);
    expect(output.slice(-2)).toEqual(input.slice(-2));
    expect(validateConversation(output, { allowPendingToolCalls: true })).toEqual([]);
    engine.close();
  });
});
