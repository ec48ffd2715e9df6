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

/** A small PNG as a data URL: the image of an ask that is only an image. */
const IMAGE_URL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";

/**
 * Mid-turn, as an agent loop sends its next request: the user's ask, the assistant's tool calls and
 * their results, and no reply yet.
 */
function midTurn(): ChatMessage[] {
  const calls = [0, 1].map((c) => ({ id: `call_now_${c}`, type: "function" as const, function: { name: "read_file", arguments: JSON.stringify({ path: `src/now_${c}.py` }) } }));
  return [
    ...agentSession(40, 3_000),
    { role: "assistant", content: "Done." },
    { role: "user", content: "Read src/now_0.py and src/now_1.py and tell me which one raises." },
    { role: "assistant", content: null, tool_calls: calls },
    ...calls.map((call) => ({ role: "tool" as const, tool_call_id: call.id, content: `contents of ${JSON.parse(call.function.arguments).path}\nraise ValueError("bad")\n` })),
  ];
}

/** The scenarios every engine must handle. */
export function conformanceScenarios(): Scenario[] {
  return [
    { name: "short conversation", messages: agentSession(1, 100) },
    { name: "long agent session with large tool outputs", messages: agentSession(60, 6_000) },
    { name: "parallel tool calls", messages: agentSession(25, 2_000, 3) },
    { name: "many small turns", messages: agentSession(200, 200) },
    { name: "a latest ask that starts like a compaction summary", messages: [...agentSession(40, 3_000), { role: "assistant", content: "Done." }, { role: "user", content: "[CONTEXT COMPACTION] what does this header mean? Explain it." }] },
    { name: "mid-turn: the newest tool results, no reply yet", messages: midTurn() },
    { name: "a latest ask that is only an image", messages: [...agentSession(40, 3_000), { role: "assistant", content: "Done." }, { role: "user", content: [{ type: "image_url", image_url: { url: IMAGE_URL } }] }] },
  ];
}
