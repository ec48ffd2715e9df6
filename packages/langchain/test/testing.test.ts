/** The LangChain test kit: any engine, by name, path or instance, in a real createAgent agent with a scripted model. */
import { describe, expect, it } from "vitest";
import { runLangChainAgent } from "@context-engine/langchain/testing";
import { loopKitCases, SLIDING_WINDOW_DIR } from "../../../test/support/loopKitCases.js";

describe("runLangChainAgent", () => {
  loopKitCases(runLangChainAgent);

  it("records each model call's view as chat messages, the agent's tool results answering its calls", async () => {
    const run = await runLangChainAgent({ engine: SLIDING_WINDOW_DIR });
    const first = run.steps[1]!.messages;
    expect(first[0]!.role).toBe("user");
    const calls = first.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const answered = first.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((id) => calls.includes(id!))).toBe(true);
  });
});
