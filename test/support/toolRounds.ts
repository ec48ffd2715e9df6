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

/** `count` × (an ask, a read_file call, its 2 KB result, an answer), labelled `label`: turns of a coding session that fill a window. */
export function readRounds(count: number, label: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < count; i++) {
    const id = `call_${label}_${i}`;
    out.push({ role: "user", content: `${label} ${i}: check src/${label}_${i}.ts` });
    out.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${label}_${i}.ts` }) } }] });
    out.push({ role: "tool", tool_call_id: id, content: `contents of src/${label}_${i}.ts\n${"x".repeat(2_000)}` });
    out.push({ role: "assistant", content: `Checked src/${label}_${i}.ts.` });
  }
  return out;
}
