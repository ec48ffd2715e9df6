/**
 * Tool-call / tool-result pairing helpers shared by every engine: id matching, boundary alignment
 * (a boundary never splits a call from its results) and sanitizing (no orphans in either direction).
 *
 * The pairing rule both providers enforce: the results of an assistant's tool calls sit in the
 * contiguous run of `tool` messages directly after that assistant message, one result per call.
 */
import { COMPACTION_SIGNATURE } from "./compactionMarker.js";
import type { ChatMessage, ToolCall } from "./schema.js";

/**
 * The stub text inserted for a tool call whose result was removed. It ends with the invisible
 * {@link COMPACTION_SIGNATURE}, so a real tool result that prints the visible text is never taken for a stub.
 */
export const STUB_TOOL_RESULT = `[Tool result removed during context compaction]${COMPACTION_SIGNATURE}`;

/** The id a tool result answers: `call_id ?? id` (Responses API items carry `call_id`). */
export function toolCallKey(call: ToolCall): string {
  return call.call_id ?? call.id;
}

/** True when `content` carries nothing: `null`/absent, `""` or `[]`. */
export function isEmptyContent(content: ChatMessage["content"] | undefined): boolean {
  return content === null || content === undefined || content === "" || (Array.isArray(content) && content.length === 0);
}

/** True for an assistant message with empty content and no tool calls (providers reject it). */
export function isEmptyAssistant(message: ChatMessage): boolean {
  return message.role === "assistant" && isEmptyContent(message.content) && (message.tool_calls?.length ?? 0) === 0;
}

/**
 * For every position, the index of the assistant message whose result run it belongs to: a `tool`
 * message in the contiguous run of tool messages directly after an assistant maps to that assistant;
 * anything else maps to -1.
 */
export function toolRunOwners(messages: ChatMessage[]): number[] {
  const owners: number[] = [];
  let owner = -1;
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      owners.push(owner);
      return;
    }
    owners.push(-1);
    owner = message.role === "assistant" ? index : -1;
  });
  return owners;
}

function checkIndex(messages: ChatMessage[], index: number, fn: string): void {
  if (!Number.isInteger(index) || index < 0 || index > messages.length) {
    throw new RangeError(`${fn}: index ${index} is outside [0, ${messages.length}] (messages.length = ${messages.length})`);
  }
}

/**
 * Moves a cut index backward so that `messages[index]` is not a tool result whose call sits before the
 * cut: it walks back over consecutive tool results to the assistant message that issued them.
 * Returns an index in [0, index] (`index` itself when `messages[index]` is not a tool result, or when
 * no assistant precedes the run, i.e. the results are orphans anyway).
 */
export function alignBoundaryBackward(messages: ChatMessage[], index: number): number {
  checkIndex(messages, index, "alignBoundaryBackward");
  if (messages[index]?.role !== "tool") return index;
  let start = index;
  while (start > 0 && messages[start - 1]?.role === "tool") start -= 1;
  return start > 0 && messages[start - 1]?.role === "assistant" ? start - 1 : index;
}

/** Moves a cut index forward past tool results so the part after the cut never starts with one. */
export function alignBoundaryForward(messages: ChatMessage[], index: number): number {
  checkIndex(messages, index, "alignBoundaryForward");
  let cut = index;
  while (cut < messages.length && messages[cut]?.role === "tool") cut += 1;
  return cut;
}

/** The calls of an assistant message, a repeated key within the same message keeping its first call. */
function uniqueCalls(message: ChatMessage): ToolCall[] {
  const seen = new Set<string>();
  return (message.tool_calls ?? []).filter((call) => {
    const key = toolCallKey(call);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One assistant's result slots: which results stay where they are, which are moved in. */
interface ResultSlots {
  calls: ToolCall[];
  keys: Set<string>;
  /** Results already in this assistant's run, in their original order. */
  inPlace: ChatMessage[];
  inPlaceKeys: Set<string>;
  /** Results moved here from elsewhere, by call key. */
  moved: Map<string, ChatMessage>;
  filled: Set<string>;
}

/** A stub result for `key`, so the call stays answered after its real result was dropped. */
function stubResult(key: string): ChatMessage {
  return { role: "tool", tool_call_id: key, content: STUB_TOOL_RESULT };
}

/**
 * Picks the assistant a misplaced result for `key` (found at `position`) is moved to: the latest one
 * before it whose call `key` has no result yet, else the earliest such one after it; -1 when none.
 */
function pickHome(key: string, position: number, slots: Map<number, ResultSlots>, issuers: number[]): number {
  const open = issuers.filter((a) => !slots.get(a)?.filled.has(key));
  const before = open.filter((a) => a < position);
  if (before.length > 0) return before[before.length - 1] ?? -1;
  return open[0] ?? -1;
}

/**
 * Repairs dangling pairs without mutating the input: a tool result whose call is gone is removed; a
 * tool call whose result is gone gets a stub result right after its assistant message (and the results
 * that exist are kept); ids are matched by `call_id ?? id`. Never leaves an assistant message with empty
 * content and no calls.
 *
 * Details: a result outside the run of tool messages directly after its call's assistant is moved into
 * that run if the call has no result there yet, else removed; of several results for one call the first
 * is kept; a call repeating a key already used in the same message is dropped; an emptied `tool_calls`
 * array is removed. Results already in place keep their order (the cached prefix stays the same); moved
 * results and stubs follow them in call order. Untouched messages are returned as the same objects.
 * Keys repeated across different assistant messages are paired by position (each with its own run).
 */
export function sanitizeToolPairs(messages: ChatMessage[]): ChatMessage[] {
  const owners = toolRunOwners(messages);
  const slots = new Map<number, ResultSlots>();
  const issuersByKey = new Map<string, number[]>();
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const calls = uniqueCalls(message);
    const keys = new Set(calls.map(toolCallKey));
    slots.set(index, { calls, keys, inPlace: [], inPlaceKeys: new Set(), moved: new Map(), filled: new Set() });
    for (const key of keys) issuersByKey.set(key, [...(issuersByKey.get(key) ?? []), index]);
  });

  // Pass 1: results already in their call's run.
  const misplaced: number[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    const key = message.tool_call_id;
    const home = slots.get(owners[index] ?? -1);
    if (key !== undefined && home?.keys.has(key) && !home.filled.has(key)) {
      home.inPlace.push(message);
      home.inPlaceKeys.add(key);
      home.filled.add(key);
    } else {
      misplaced.push(index);
    }
  });

  // Pass 2: move each remaining result to a call still waiting for one; drop the rest.
  for (const index of misplaced) {
    const message = messages[index];
    const key = message?.tool_call_id;
    if (message === undefined || key === undefined) continue;
    const home = slots.get(pickHome(key, index, slots, issuersByKey.get(key) ?? []));
    if (home === undefined) continue;
    home.moved.set(key, message);
    home.filled.add(key);
  }

  const out: ChatMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === "tool") return;
    const slot = slots.get(index);
    if (slot === undefined) {
      out.push(message);
      return;
    }
    const assistant = withCalls(message, slot.calls);
    if (isEmptyAssistant(assistant)) return;
    out.push(assistant, ...slot.inPlace);
    for (const call of slot.calls) {
      const key = toolCallKey(call);
      if (slot.inPlaceKeys.has(key)) continue;
      out.push(slot.moved.get(key) ?? stubResult(key));
    }
  });
  return out;
}

/** `message` with exactly `calls` (the same object when nothing changes; no empty `tool_calls` array). */
function withCalls(message: ChatMessage, calls: ToolCall[]): ChatMessage {
  const current = message.tool_calls;
  if (current === undefined) return message;
  if (calls.length === current.length && calls.length > 0) return message;
  const { tool_calls: _dropped, ...rest } = message;
  return calls.length > 0 ? { ...rest, tool_calls: calls } : (rest as ChatMessage);
}

/**
 * Where a trailing group of in-flight tool calls starts: the index of the last assistant message with
 * tool calls when only tool results follow it and at least one of its calls has no result yet (the tools
 * are still running); -1 otherwise. Engines keep that group out of compaction and append it unchanged,
 * so a result arriving later still finds its call (never a stub).
 */
export function pendingToolCallsStart(messages: ChatMessage[]): number {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role === "tool") index--;
  const assistant = messages[index];
  if (assistant === undefined || assistant.role !== "assistant" || !assistant.tool_calls?.length) return -1;
  const answered = new Set(messages.slice(index + 1).map((m) => m.tool_call_id));
  return assistant.tool_calls.some((call) => !answered.has(toolCallKey(call))) ? index : -1;
}
