/** Provider rules (Anthropic and OpenAI) checked in code: every compressed output must pass them. */
import type { ChatMessage, ToolCall } from "./schema.js";
import { isEmptyAssistant, pendingToolCallsStart, toolCallKey, toolRunOwners } from "./toolPairs.js";

/** Kinds of rule violations {@link validateConversation} reports. */
export type ConversationProblemCode =
  | "orphan_tool_result" // a tool result whose call is nowhere before it
  | "missing_tool_result" // a tool call with no result after it
  | "tool_result_before_call" // a result that appears before the call it answers
  | "misplaced_tool_result" // a result outside the run of tool messages directly after its call's assistant
  | "duplicate_tool_result" // a second result for the same call
  | "tool_result_first" // the first non-system message (or the tail) starts with a tool result
  | "first_not_user" // the first non-system message is not a user message (Anthropic)
  | "consecutive_same_role" // two user or two assistant messages in a row
  | "system_not_first" // a system message after a non-system one
  | "empty_assistant" // an assistant message with no content and no tool calls
  | "duplicate_tool_call_id"; // two calls share an id

/** One violation: where it is and what is wrong. */
export interface ConversationProblem {
  code: ConversationProblemCode;
  index: number;
  message: string;
}

/** Options of {@link validateConversation}. */
export interface ValidateOptions {
  /**
   * Also report `consecutive_same_role` (two user or two assistant messages in a row). Off by default:
   * real transcripts have consecutive user messages and providers merge them.
   */
  strictAlternation?: boolean;
  /**
   * Accept tool calls of the last assistant message that have no result yet because the tools are still
   * running (only tool results follow it). Off by default: a provider rejects such a request.
   */
  allowPendingToolCalls?: boolean;
}

/** `messages[12] (tool, tool_call_id "call_3")`: names a message in a problem text. */
export function describeMessageAt(messages: ChatMessage[], index: number): string {
  const message = messages[index];
  if (message === undefined) return `messages[${index}]`;
  const id = message.role === "tool" ? `, tool_call_id ${JSON.stringify(message.tool_call_id ?? null)}` : "";
  return `messages[${index}] (${message.role}${id})`;
}

/** Where each call key is issued: assistant indices in order (a key repeated in one message counts once). */
function issuersByKey(messages: ChatMessage[]): Map<string, number[]> {
  const issuers = new Map<string, number[]>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== "assistant" || message.tool_calls === undefined) continue;
    for (const call of message.tool_calls) {
      const key = toolCallKey(call);
      const list = issuers.get(key);
      if (list === undefined) issuers.set(key, [index]);
      else if (list[list.length - 1] !== index) list.push(index); // a key the message repeats is listed once
    }
  }
  return issuers;
}

/** True when one of `calls` has the result key `key` (no set built: a message has few calls). */
function callsInclude(calls: readonly ToolCall[] | undefined, key: string): boolean {
  if (calls === undefined) return false;
  for (const call of calls) if (toolCallKey(call) === key) return true;
  return false;
}

/** The latest of the ascending `indices` before `index`, or -1. */
function latestBefore(indices: readonly number[] | undefined, index: number): number {
  if (indices === undefined) return -1;
  for (let p = indices.length - 1; p >= 0; p--) if (indices[p]! < index) return indices[p]!;
  return -1;
}

function orderProblems(messages: ChatMessage[], strictAlternation: boolean): ConversationProblem[] {
  const problems: ConversationProblem[] = [];
  const at = (index: number) => describeMessageAt(messages, index);
  const firstIndex = messages.findIndex((m) => m.role !== "system");
  const first = messages[firstIndex];
  if (first !== undefined && first.role === "tool") {
    problems.push({ code: "tool_result_first", index: firstIndex, message: `${at(firstIndex)}: the conversation starts with a tool result` });
  }
  if (first !== undefined && first.role !== "user") {
    problems.push({ code: "first_not_user", index: firstIndex, message: `${at(firstIndex)}: the first non-system message must be a user message` });
  }
  messages.forEach((message, index) => {
    if (message.role === "system" && firstIndex !== -1 && index > firstIndex) {
      problems.push({ code: "system_not_first", index, message: `${at(index)}: system message after ${at(firstIndex)}` });
    }
    if (isEmptyAssistant(message)) {
      problems.push({ code: "empty_assistant", index, message: `${at(index)}: assistant message with empty content and no tool calls` });
    }
    const previous = messages[index - 1];
    if (strictAlternation && previous?.role === message.role && (message.role === "user" || message.role === "assistant")) {
      problems.push({ code: "consecutive_same_role", index, message: `${at(index)}: follows another ${message.role} message` });
    }
  });
  return problems;
}

function duplicateCallProblems(messages: ChatMessage[]): ConversationProblem[] {
  const problems: ConversationProblem[] = [];
  const firstUse = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    for (const call of message.tool_calls ?? []) {
      const key = toolCallKey(call);
      const earlier = firstUse.get(key);
      if (earlier === undefined) {
        firstUse.set(key, index);
        continue;
      }
      const where = earlier === index ? "earlier in the same message" : `by messages[${earlier}]`;
      problems.push({ code: "duplicate_tool_call_id", index, message: `${describeMessageAt(messages, index)}: tool call id ${JSON.stringify(key)} is already used ${where}` });
    }
  });
  return problems;
}

function pairingProblems(messages: ChatMessage[]): ConversationProblem[] {
  const problems: ConversationProblem[] = [];
  const at = (index: number) => describeMessageAt(messages, index);
  const owners = toolRunOwners(messages);
  const issuers = issuersByKey(messages);
  /** `${assistantIndex}:${key}` → index of the result that answers that call. */
  const answered = new Map<string, number>();

  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    const key = message.tool_call_id;
    if (key === undefined) {
      problems.push({ code: "orphan_tool_result", index, message: `${at(index)}: result has no tool_call_id` });
      return;
    }
    const owner = owners[index] ?? -1;
    const keyIssuers = issuers.get(key);
    const home = owner >= 0 && callsInclude(messages[owner]?.tool_calls, key) ? owner : latestBefore(keyIssuers, index);
    if (home === -1) {
      const later = keyIssuers?.find((a) => a > index);
      problems.push(
        later === undefined
          ? { code: "orphan_tool_result", index, message: `${at(index)}: result has no matching tool call` }
          : { code: "tool_result_before_call", index, message: `${at(index)}: result appears before its call in messages[${later}]` },
      );
      return;
    }
    const slot = `${home}:${key}`;
    const previous = answered.get(slot);
    if (previous !== undefined) {
      problems.push({ code: "duplicate_tool_result", index, message: `${at(index)}: second result for the call in messages[${home}] (first is messages[${previous}])` });
      return;
    }
    answered.set(slot, index);
    if (home !== owner) {
      problems.push({ code: "misplaced_tool_result", index, message: `${at(index)}: result is not in the run of tool messages directly after its call in messages[${home}]` });
    }
  });

  messages.forEach((message, index) => {
    if (message.role !== "assistant" || message.tool_calls === undefined || message.tool_calls.length === 0) return;
    for (const key of new Set(message.tool_calls.map(toolCallKey))) {
      if (answered.has(`${index}:${key}`)) continue;
      problems.push({ code: "missing_tool_result", index, message: `${at(index)}: tool call ${JSON.stringify(key)} has no result after it` });
    }
  });
  return problems;
}

/**
 * Returns every provider-rule problem of `messages` (empty list = valid), sorted by message index.
 * A result counts as answering the call of the assistant whose run it sits in, else of the latest
 * earlier assistant issuing its id (then it is `misplaced_tool_result`); a call none answers is
 * `missing_tool_result`. `consecutive_same_role` only with `options.strictAlternation`.
 */
export function validateConversation(messages: ChatMessage[], options: ValidateOptions = {}): ConversationProblem[] {
  const problems = [
    ...orderProblems(messages, options.strictAlternation === true),
    ...duplicateCallProblems(messages),
    ...pairingProblems(messages),
  ];
  const pending = options.allowPendingToolCalls ? pendingToolCallsStart(messages) : -1;
  return problems.filter((p) => !(p.code === "missing_tool_result" && p.index === pending)).sort((a, b) => a.index - b.index);
}

/**
 * The problems of `output` that `input` did not already have: for each code, those past the input's
 * count of it. A compaction may keep a problem it was given (e.g. a tool call still running) but must
 * not add one; an empty list means `output` is acceptable in place of `input`.
 */
export function problemsIntroduced(input: ChatMessage[], output: ChatMessage[], options: ValidateOptions = {}): ConversationProblem[] {
  const had = new Map<ConversationProblemCode, number>();
  for (const problem of validateConversation(input, options)) had.set(problem.code, (had.get(problem.code) ?? 0) + 1);
  return validateConversation(output, options).filter((problem) => {
    const left = had.get(problem.code) ?? 0;
    had.set(problem.code, left - 1);
    return left <= 0;
  });
}
