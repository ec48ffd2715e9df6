/** A small transcript of tool rounds, for tests of what an engine does with tool pairs. */
import type { ChatMessage } from "@context-engine/core";

/**
 * system, an ask, then `rounds` × (a bash call, its result, an answer, the next ask), then a last answer:
 * request 1 of its replay ends with the first tool result (`call_0`).
 */
export function toolRounds(rounds: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "sys" }, { role: "user", content: "fix the build" }];
  for (let r = 0; r < rounds; r++) {
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${r}`, type: "function", function: { name: "bash", arguments: `{"command":"make ${r}"}` } }] });
    messages.push({ role: "tool", tool_call_id: `call_${r}`, content: `step ${r} failed` });
    messages.push({ role: "assistant", content: `round ${r} done` });
    messages.push({ role: "user", content: `and now step ${r + 1}` });
  }
  messages.push({ role: "assistant", content: "all done" });
  return messages;
}
