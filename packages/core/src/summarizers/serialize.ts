/**
 * Turns conversation messages into the plain-text transcript a summary model reads:
 * `[USER]: …`, `[ASSISTANT]: …` + `[Tool calls: name(key: value, …)]` (arguments as written, not
 * JSON-escaped, so a command reads as it ran), `[TOOL RESULT <id> — bash \`pytest\` → exit 1]: …` (the
 * call a result answers and the exit status it reports), `[SYSTEM]: …`. Terminal colours are left out,
 * long bodies are truncated, the whole transcript is capped, secrets are redacted, and an assistant's
 * inline reasoning blocks (`<think>…</think>`) are left out.
 */
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { toolCallKey } from "../messages/toolPairs.js";
import { reportedExit, visibleExitCode } from "../facts/exitStatus.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../messages/prunedOutput.js";
import { errorSignatures } from "../facts/errorSignatures.js";
import { withoutAnsi } from "../facts/ansi.js";
import { parseToolArguments, toolCallTarget } from "../facts/toolCallTargets.js";
import { redactSecrets } from "./redact.js";
import { stripReasoningBlocks } from "./reasoning.js";

export { redactSecrets } from "./redact.js";

/** A body longer than this is truncated. */
export const MAX_BODY_CHARS = 6_000;
/** Characters kept from the start of a truncated body. */
export const BODY_HEAD_CHARS = 4_000;
/** Characters kept from the end of a truncated body. */
export const BODY_TAIL_CHARS = 1_500;

/** How much of one body the summary model reads: the longest kept whole, and the two ends of a longer one. */
export interface BodyLimit {
  max: number;
  head: number;
  tail: number;
}

/** Tool results and call arguments: 6,000 characters, else the first 4,000 and the last 1,500. */
export const TOOL_BODY_LIMIT: BodyLimit = { max: MAX_BODY_CHARS, head: BODY_HEAD_CHARS, tail: BODY_TAIL_CHARS };
/**
 * What the user and the assistant wrote: 24,000 characters, else the first 16,000 and the last 6,000. A
 * long turn is a plan, a pasted log or a sub-agent's report, dense with the paths and decisions a summary
 * needs; a range too long for one call is read in chunks, so a long turn no longer crowds others out.
 */
export const PROSE_BODY_LIMIT: BodyLimit = { max: 24_000, head: 16_000, tail: 6_000 };
/** Upper bound of the whole serialized transcript, marker included. */
export const MAX_SERIALIZED_CHARS = 160_000;
/** Share of the capped transcript taken from its start (the rest comes from its end). */
export const SERIALIZED_HEAD_SHARE = 0.45;
/** Inserted where text was cut out. */
export const TRUNCATION_MARKER = "\n...[truncated]...\n";

import { contentText } from "../messages/text.js";

export { contentText };

/**
 * Characters of error lines a truncated body keeps from the part it cut: as many as a cleared output's
 * evidence shows the summary model (compressor/clearedEvidence.ts), so a long run's later errors are read
 * whether pruning cleared the output or the serializer cut it.
 */
export const CUT_ERROR_CHARS = 2_000;
/** Error lines read from the part a truncated body cut, before {@link CUT_ERROR_CHARS} bounds them. */
const CUT_ERROR_LINES = 24;

/** The error lines of `cut` (facts/errorSignatures.ts), at most {@link CUT_ERROR_CHARS} characters in all. */
function cutErrorLines(cut: string): string[] {
  const kept: string[] = [];
  let chars = 0;
  for (const line of errorSignatures(cut, CUT_ERROR_LINES)) {
    if (chars + line.length > CUT_ERROR_CHARS) break;
    kept.push(line);
    chars += line.length;
  }
  return kept;
}

/**
 * Keeps the two ends of a body over `limit.max` characters (by default 6,000: the first 4,000 and the
 * last 1,500); error lines in the part cut out (a failing test in the middle of a long run) are kept in
 * the marker.
 */
export function truncateBody(text: string, limit: BodyLimit = TOOL_BODY_LIMIT): string {
  if (text.length <= limit.max) return text;
  const tailAt = text.length - limit.tail;
  const errors = cutErrorLines(text.slice(limit.head, tailAt));
  const marker = errors.length === 0 ? TRUNCATION_MARKER : `\n...[truncated; error lines of the cut part:\n${errors.join("\n")}\n]...\n`;
  return text.slice(0, limit.head) + marker + text.slice(tailAt);
}

/** Caps a transcript at `maxChars` (marker included), keeping 45 % from its start and 55 % from its end. */
export function capSerializedInput(text: string, maxChars = MAX_SERIALIZED_CHARS): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - TRUNCATION_MARKER.length);
  const head = Math.floor(budget * SERIALIZED_HEAD_SHARE);
  const tail = budget - head;
  return text.slice(0, head) + TRUNCATION_MARKER + text.slice(text.length - tail);
}

function clean(text: string, limit: BodyLimit = TOOL_BODY_LIMIT): string {
  return truncateBody(redactSecrets(withoutAnsi(text)), limit);
}

/** Characters of a call's command or file shown in the label of its result. */
const LABEL_TARGET_CHARS = 200;

/** A call's arguments as written: `key: value` pairs, strings unquoted (JSON that is not an object, or no JSON, as it came). */
export function readableArguments(argumentsJson: string): string {
  const args = parseToolArguments(argumentsJson);
  if (args === undefined) return clean(argumentsJson);
  return Object.entries(args)
    .map(([key, value]) => `${key}: ${clean(typeof value === "string" ? value : JSON.stringify(value) ?? String(value))}`)
    .join(", ");
}

/** What a result answers: the call's name and its command or first file, on one line (`bash \`npm test\``). */
export function callLabel(call: ToolCall): string {
  const target = toolCallTarget(call.function.name, call.function.arguments);
  const what = target.command ?? target.paths[0];
  if (what === undefined) return call.function.name;
  const flat = what.replace(/\s+/g, " ").trim();
  return `${call.function.name} \`${flat.length > LABEL_TARGET_CHARS ? `${flat.slice(0, LABEL_TARGET_CHARS - 1)}…` : flat}\``;
}

/** The header of a tool result: its id, the call it answers (when in `calls`) and the exit status it reports. */
export function resultHeader(message: ChatMessage, text: string, calls: ReadonlyMap<string, ToolCall> | undefined): string {
  const id = message.tool_call_id ?? "unknown";
  const call = message.tool_call_id === undefined ? undefined : calls?.get(message.tool_call_id);
  // a cleared output's descriptor states the exit status it read (`[bash] ran \`…\` -> exit 1, …`)
  const exit = text.startsWith(PRUNED_TOOL_PLACEHOLDER) ? visibleExitCode(text.split("\n", 1)[0]!) : reportedExit(text);
  const flagged = (message as { is_error?: unknown }).is_error === true;
  const outcome = exit !== undefined ? ` → exit ${exit}` : flagged ? " → error" : "";
  return `[TOOL RESULT ${id}${call !== undefined ? ` — ${callLabel(call)}` : ""}${outcome}]`;
}

/**
 * One message as transcript text (secrets redacted, long bodies truncated, an assistant's reasoning
 * blocks left out); `calls` (by result key) label a tool result with the call it answers.
 */
export function serializeMessage(message: ChatMessage, calls?: ReadonlyMap<string, ToolCall>): string {
  const text = contentText(message.content);
  const body = clean(message.role === "assistant" ? stripReasoningBlocks(text) : text, message.role === "tool" ? TOOL_BODY_LIMIT : PROSE_BODY_LIMIT);
  switch (message.role) {
    case "system":
      return `[SYSTEM]: ${body}`;
    case "user":
      return `[USER]: ${body}`;
    case "tool":
      return `${resultHeader(message, text, calls)}: ${body}`;
    case "assistant": {
      const toolCalls = message.tool_calls ?? [];
      if (toolCalls.length === 0) return `[ASSISTANT]: ${body}`;
      const rendered = toolCalls.map((call) => `${call.function.name}(${readableArguments(call.function.arguments)})`).join(", ");
      return `[ASSISTANT]: ${body}\n[Tool calls: ${rendered}]`;
    }
  }
}

/** The tool calls of `messages` by the key their results answer (`call_id ?? id`, and `id`). */
export function callsByResultKey(messages: readonly ChatMessage[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      calls.set(toolCallKey(call), call);
      if (!calls.has(call.id)) calls.set(call.id, call);
    }
  }
  return calls;
}

/** Each message of `messages` as transcript text, results labelled with the calls among them. */
export function serializeEach(messages: readonly ChatMessage[]): string[] {
  const calls = callsByResultKey(messages);
  return messages.map((message) => serializeMessage(message, calls));
}

/** The whole transcript for a summary model, capped at 160,000 characters. */
export function serializeTurns(messages: ChatMessage[]): string {
  return capSerializedInput(serializeEach(messages).join("\n\n"));
}
