/**
 * Turns the messages an importer read (each tagged with where it came from) into a conversation that
 * passes `validateConversation()`: every tool result sits right after the assistant message that
 * issued its call; call ids are unique; results with no call, duplicate results and calls with no
 * result are left out, and each such repair is reported as a warning naming the source place.
 * Nothing is invented: a call whose result is missing is removed from `tool_calls` (not given a stub
 * result), and an assistant message left with no content and no calls is dropped.
 */
import { parseMessages, type ChatMessage, type ToolCall } from "../messages/schema.js";
import { isEmptyAssistant, sanitizeToolPairs, toolCallKey } from "../messages/toolPairs.js";
import { validateConversation } from "../messages/validate.js";

/** A message plus the place it was read from (`file:12`, `file: history[3]`). */
export interface SourcedMessage {
  message: ChatMessage;
  where: string;
}

interface CallGroup {
  item: number;
  /** The calls as emitted (a repeated id already renamed). */
  calls: ToolCall[];
  /** Original key → emitted key, for the calls whose id was renamed. */
  renamed: Map<string, string>;
  /** Original key → result (its `tool_call_id` already set to the emitted key). */
  results: Map<string, ChatMessage>;
}

function describeCall(call: ToolCall): string {
  return `${JSON.stringify(toolCallKey(call))} (${call.function.name})`;
}

/** `call` answering to `key` instead (the `call_id` when it has one, else the `id`). */
function withKey(call: ToolCall, key: string): ToolCall {
  return call.call_id !== undefined ? { ...call, call_id: key } : { ...call, id: key };
}

/**
 * Indexes the calls of every assistant item. A call id repeated within one message is dropped; one
 * repeated by a later message (replayed trajectories reuse ids) is renamed `<id>_<n>`, and the result
 * that follows that message gets the new id too, so every id is unique.
 */
function indexCalls(items: SourcedMessage[], warnings: string[]): { groups: Map<number, CallGroup>; byKey: Map<string, CallGroup[]> } {
  const groups = new Map<number, CallGroup>();
  const byKey = new Map<string, CallGroup[]>();
  const used = new Set<string>();
  items.forEach(({ message, where }, index) => {
    if (message.role !== "assistant" || (message.tool_calls?.length ?? 0) === 0) return;
    const group: CallGroup = { item: index, calls: [], renamed: new Map(), results: new Map() };
    for (const call of message.tool_calls ?? []) {
      const key = toolCallKey(call);
      if (group.calls.some((c) => toolCallKey(c) === key) || group.renamed.has(key)) {
        warnings.push(`${where}: tool call ${describeCall(call)} repeats an id of the same message; left out`);
        continue;
      }
      let emitted = key;
      for (let n = 2; used.has(emitted); n += 1) emitted = `${key}_${n}`;
      if (emitted !== key) {
        warnings.push(`${where}: tool call ${describeCall(call)} reuses an earlier id; renamed ${JSON.stringify(emitted)}`);
        group.renamed.set(key, emitted);
      }
      used.add(emitted);
      byKey.set(key, [...(byKey.get(key) ?? []), group]);
      group.calls.push(withKey(call, emitted));
    }
    groups.set(index, group);
  });
  return { groups, byKey };
}

/**
 * Attaches every tool result to the latest earlier group issuing its id, reporting orphans,
 * duplicates and results that had to be moved next to their call.
 */
function attachResults(items: SourcedMessage[], byKey: Map<string, CallGroup[]>, warnings: string[]): void {
  let lastNonTool = -1;
  items.forEach(({ message, where }, index) => {
    if (message.role !== "tool") {
      lastNonTool = index;
      return;
    }
    const key = message.tool_call_id;
    const issuers = key === undefined ? [] : (byKey.get(key) ?? []);
    const group = issuers.filter((g) => g.item < index).pop();
    if (key === undefined) {
      warnings.push(`${where}: tool result without tool_call_id; left out`);
    } else if (group === undefined) {
      const later = issuers[0];
      warnings.push(
        later === undefined
          ? `${where}: tool result for ${JSON.stringify(key)} answers no tool call; left out`
          : `${where}: tool result for ${JSON.stringify(key)} comes before its call (${items[later.item]?.where}); left out`,
      );
    } else if (group.results.has(key)) {
      warnings.push(`${where}: second tool result for ${JSON.stringify(key)}; left out`);
    } else {
      if (lastNonTool !== group.item) {
        warnings.push(`${where}: tool result for ${JSON.stringify(key)} was not right after its call (${items[group.item]?.where}); moved there`);
      }
      const emitted = group.renamed.get(key);
      group.results.set(key, emitted === undefined ? message : { ...message, tool_call_id: emitted });
    }
  });
}

/** The emitted key of a call → its result. */
function resultsByEmittedKey(group: CallGroup): Map<string, ChatMessage> {
  const out = new Map<string, ChatMessage>();
  for (const [key, result] of group.results) out.set(group.renamed.get(key) ?? key, result);
  return out;
}

/** The assistant message of `group` with only its answered calls (reporting the unanswered ones). */
function answeredOnly(message: ChatMessage, group: CallGroup, results: Map<string, ChatMessage>, where: string, warnings: string[]): ChatMessage {
  const answered = group.calls.filter((call) => results.has(toolCallKey(call)));
  for (const call of group.calls) {
    if (!results.has(toolCallKey(call))) {
      warnings.push(`${where}: tool call ${describeCall(call)} has no result; left out of tool_calls`);
    }
  }
  const { tool_calls: _all, ...rest } = message;
  return answered.length > 0 ? { ...rest, tool_calls: answered } : (rest as ChatMessage);
}

/**
 * Builds a valid conversation from `items` (see the module comment), appending one warning per repair
 * to `warnings`. A system message after the conversation started becomes a user message (reported).
 * Returns messages validated by `parseMessages`; any provider-rule problem still left is reported too.
 */
export function assembleConversation(items: SourcedMessage[], warnings: string[]): ChatMessage[] {
  const { groups, byKey } = indexCalls(items, warnings);
  attachResults(items, byKey, warnings);
  const out: ChatMessage[] = [];
  let started = false;
  items.forEach(({ message, where }, index) => {
    if (message.role === "tool") return;
    let current = message;
    if (current.role === "system" && started) {
      warnings.push(`${where}: system message after the conversation started; kept as a user message`);
      current = { ...current, role: "user" };
    }
    const group = groups.get(index);
    const results = group === undefined ? new Map<string, ChatMessage>() : resultsByEmittedKey(group);
    if (group !== undefined) current = answeredOnly(current, group, results, where, warnings);
    if (isEmptyAssistant(current)) {
      if (group !== undefined) warnings.push(`${where}: assistant message left empty; dropped`);
      return;
    }
    if (current.role !== "system") started = true;
    out.push(current);
    for (const call of current.tool_calls ?? []) {
      const result = results.get(toolCallKey(call));
      if (result !== undefined) out.push(result);
    }
  });
  return finalize(out, warnings);
}

/** Safety net: sanitizes pairs (a no-op for assembled output), validates, reports leftover problems. */
function finalize(messages: ChatMessage[], warnings: string[]): ChatMessage[] {
  const sanitized = sanitizeToolPairs(messages);
  if (sanitized.length !== messages.length || sanitized.some((m, i) => m !== messages[i])) {
    warnings.push(`tool call/result pairs repaired by sanitizeToolPairs (${messages.length} → ${sanitized.length} messages)`);
  }
  const parsed = parseMessages(sanitized, "imported transcript");
  for (const problem of validateConversation(parsed)) {
    warnings.push(`output still breaks a provider rule: ${problem.message}`);
  }
  return parsed;
}

/** Joins the text of content parts (`{type:"text", text}`), ignoring other parts. */
export function textOfParts(parts: readonly unknown[], separator = "\n"): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    else if (typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string") {
      texts.push((part as { text: string }).text);
    }
  }
  return texts.join(separator);
}
