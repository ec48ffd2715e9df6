/**
 * Tool call ids that repeat across assistant messages (a host whose counter restarted, a gateway that
 * numbers calls per turn) are refused by providers. lcm keeps every message verbatim in its store, so the
 * fix happens where the context is assembled: earlier uses of a repeated id are renamed, the newest keeps it.
 */
import { toolCallKey, type ChatMessage, type ToolCall } from "./core.js";

/** The id an earlier use of `key` is renamed to: `key~n` with the smallest n ≥ 2 no message uses. */
function freshKey(key: string, taken: Set<string>): string {
  let n = 2;
  while (taken.has(`${key}~${n}`)) n++;
  const renamed = `${key}~${n}`;
  taken.add(renamed);
  return renamed;
}

/** `call` answering to `renamed` instead of its key (its `call_id` when it has one, else its `id`). */
function renameCall(call: ToolCall, renamed: string): ToolCall {
  if (call.call_id === undefined) return { ...call, id: renamed };
  return call.id === call.call_id ? { ...call, id: renamed, call_id: renamed } : { ...call, call_id: renamed };
}

/**
 * `messages` (tool pairs already repaired: every result sits in the run after its call) with no tool call
 * id used by two assistant messages: each earlier use of a repeated id, with the results in its run, gets
 * `id~n`; the newest use keeps the id, so a result still to come for it finds its call. Untouched messages
 * are returned as the same objects; a pure function, so the same input always gets the same names.
 */
export function distinctToolCallIds(messages: readonly ChatMessage[]): ChatMessage[] {
  const issuers = new Map<string, number[]>();
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    for (const key of new Set((message.tool_calls ?? []).map(toolCallKey))) issuers.set(key, [...(issuers.get(key) ?? []), index]);
  });
  /** Per assistant index: the keys it must rename, with their new names. */
  const renames = new Map<number, Map<string, string>>();
  const taken = new Set(issuers.keys());
  for (const [key, at] of issuers) {
    for (const index of at.slice(0, -1)) {
      const map = renames.get(index) ?? new Map<string, string>();
      map.set(key, freshKey(key, taken));
      renames.set(index, map);
    }
  }
  if (renames.size === 0) return [...messages];
  const out: ChatMessage[] = [];
  let current: Map<string, string> | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      const renamed = message.tool_call_id === undefined ? undefined : current?.get(message.tool_call_id);
      out.push(renamed === undefined ? message : { ...message, tool_call_id: renamed });
      continue;
    }
    current = renames.get(index);
    if (current === undefined || message.tool_calls === undefined) {
      out.push(message);
      continue;
    }
    const map = current;
    out.push({ ...message, tool_calls: message.tool_calls.map((call) => (map.has(toolCallKey(call)) ? renameCall(call, map.get(toolCallKey(call))!) : call)) });
  }
  return out;
}
