/** Conversations the conformance suite feeds to engines: realistic agent shapes, all provider-valid. */
import type { ChatMessage } from "../messages/schema.js";

/** A named input conversation. */
export interface Scenario {
  name: string;
  messages: ChatMessage[];
}

/** An agent session: a system prompt, then `turns` × (user ask, tool calls with results, reply). */
export function agentSession(turns: number, outputChars: number, parallelCalls = 1): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a careful coding agent. Use tools to inspect and change files." }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: `Step ${t}: please check src/module_${t}.py and run the tests again.` });
    const calls = Array.from({ length: parallelCalls }, (_, c) => ({
      id: `call_${t}_${c}`,
      type: "function" as const,
      function: { name: c % 2 === 0 ? "terminal" : "read_file", arguments: JSON.stringify(c % 2 === 0 ? { command: `pytest tests/test_${t}.py` } : { path: `src/module_${t}.py` }) },
    }));
    messages.push({ role: "assistant", content: `Checking step ${t}.`, tool_calls: calls });
    for (const call of calls) {
      messages.push({ role: "tool", tool_call_id: call.id, content: `output of ${call.function.name} for step ${t}\n` + "line of output\n".repeat(Math.ceil(outputChars / 15)) });
    }
    messages.push({ role: "assistant", content: `Step ${t} is done: 3 passed, 0 failed.` });
  }
  messages.push({ role: "user", content: "Now summarize what changed and add error handling." });
  return messages;
}

/** The scenarios every engine must handle. */
export function conformanceScenarios(): Scenario[] {
  return [
    { name: "short conversation", messages: agentSession(1, 100) },
    { name: "long agent session with large tool outputs", messages: agentSession(60, 6_000) },
    { name: "parallel tool calls", messages: agentSession(25, 2_000, 3) },
    { name: "many small turns", messages: agentSession(200, 200) },
    { name: "a latest ask that starts like a compaction summary", messages: [...agentSession(40, 3_000), { role: "assistant", content: "Done." }, { role: "user", content: "[CONTEXT COMPACTION] what does this header mean? Explain it." }] },
  ];
}
