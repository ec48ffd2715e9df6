/**
 * A summary asked as the conversation's suffix (`compression.summary_request: suffix`; docs/BEHAVIOUR.md,
 * "A summary that reads the cache"): the agent's own request, unchanged, and after it one instruction —
 * which part of the conversation to summarize (named by its first and last message, since the messages
 * above carry no numbers the model could count), into the template, under the rules of every summary
 * prompt. Also the text of that request as the summary model reads it, for what the fidelity eval scores
 * and the verbatim guard accepts. Pure.
 */
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { contentText } from "../messages/text.js";
import { parseToolArguments } from "../facts/toolCallTargets.js";
import { focusLine, summaryRules, summaryTemplate, UPDATE_GUIDANCE } from "./prompt.js";
import { callLabel, callsByResultKey, resultHeader } from "./serialize.js";
import type { SummaryConversation, SummaryRequest } from "./types.js";

/** Characters of a message quoted to name it in the instruction. */
export const ANCHOR_CHARS = 160;
/** Characters of the previous summary looked for in the range, to tell whether the model sees it there. */
const SHOWN_SUMMARY_PROBE_CHARS = 200;

/** `text` on one line, cut to `max` characters with an ellipsis. */
function excerpt(text: string, max = ANCHOR_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A call's arguments as their values read (`command: make 3, timeout: 60`), whole; the text as it came when it is no JSON object. */
function argumentValues(call: ToolCall): string {
  const args = parseToolArguments(call.function.arguments);
  if (args === undefined) return call.function.arguments;
  return Object.entries(args).map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`).join(", ");
}

/** A call as the instruction names it: `bash(command: make 3)`. */
function namedCall(call: ToolCall): string {
  return `${call.function.name}(${excerpt(argumentValues(call), ANCHOR_CHARS / 2)})`;
}

/** How the instruction names `message`: its role and the start of its text (a call by its call, a result by the call it answers). */
export function rangeAnchor(message: ChatMessage, calls: ReadonlyMap<string, ToolCall>): string {
  const text = excerpt(contentText(message.content));
  const begins = text === "" ? "" : ` that begins "${text}"`;
  switch (message.role) {
    case "system":
      return `the system message${begins}`;
    case "user":
      return `the user message${begins}`;
    case "tool": {
      const call = message.tool_call_id === undefined ? undefined : calls.get(message.tool_call_id);
      return `the result of tool call ${message.tool_call_id ?? "(no id)"}${call ? ` (${callLabel(call)})` : ""}${text === "" ? " (empty)" : `, which begins "${text}"`}`;
    }
    case "assistant": {
      const toolCalls = message.tool_calls ?? [];
      if (text !== "" || toolCalls.length === 0) return `the assistant message${begins}`;
      return `the assistant's tool call ${toolCalls.map(namedCall).join(" and ")}`;
    }
  }
}

/** True when the previous summary is in the range the model is asked to summarize (an earlier compaction's summary message). */
function summaryInRange(previous: string, conversation: SummaryConversation): boolean {
  const probe = previous.trim().slice(0, SHOWN_SUMMARY_PROBE_CHARS);
  return probe !== "" && conversation.messages.slice(conversation.start, conversation.end).some((m) => contentText(m.content).includes(probe));
}

/** What the instruction says of the previous summary: that the range holds it, or the summary itself (the range does not). */
function previousSummaryPart(request: SummaryRequest, conversation: SummaryConversation): string[] {
  const previous = request.previousSummary?.trim();
  if (!previous) return [];
  if (summaryInRange(previous, conversation)) return [`The part holds the summary an earlier compaction wrote ("[CONTEXT COMPACTION] …"): update it with the turns of the part ${UPDATE_GUIDANCE}`];
  return [`PREVIOUS SUMMARY (of the turns before the part; update it with the turns of the part ${UPDATE_GUIDANCE}):\n${previous}`];
}

/**
 * The final user message of a suffix request: stop working, summarize `conversation.messages[start, end)`
 * (named by its first and last message) into the template, keep what comes before and after it, under
 * the rules and focus of every summary prompt.
 */
export function suffixInstruction(request: SummaryRequest, conversation: SummaryConversation): string {
  const { messages, start, end } = conversation;
  const calls = callsByResultKey(messages);
  const first = rangeAnchor(messages[start]!, calls);
  const last = rangeAnchor(messages[end - 1]!, calls);
  const count = end - start;
  const part = count === 1 ? `the one message ${first}` : `the ${count} messages from ${first} through ${last}`;
  const after = messages.length - end;
  return [
    "The conversation above is being compacted. Stop the task here: do not continue it, do not answer its latest message, and do not call any tool. Reply with text only.",
    `Summarize a part of the conversation above, so the work can continue without it: ${part}. ` +
      `What comes before that part stays in the conversation (use it for the Goal; do not summarize it again)` +
      (after > 0 ? `, and so do the ${after} message${after === 1 ? "" : "s"} after it (do not summarize ${after === 1 ? "it" : "them"}; read ${after === 1 ? "it" : "them"} to tell what is done and what comes next).` : ".") +
      focusLine(request),
    ...previousSummaryPart(request, conversation),
    summaryRules(request.maxTokens),
    `Template:\n${summaryTemplate()}`,
    "Now write the summary of that part, following the template exactly.",
  ].join("\n\n");
}

/**
 * One message as the summary model reads it in a suffix request: whole, tool-call arguments as their
 * values, a result headed by the call it answers (`calls`), as the provider pairs them by id.
 */
function messageView(message: ChatMessage, calls: ReadonlyMap<string, ToolCall>): string {
  const text = contentText(message.content);
  switch (message.role) {
    case "system":
      return `[SYSTEM]: ${text}`;
    case "user":
      return `[USER]: ${text}`;
    case "tool":
      return `${resultHeader(message, text, calls)}: ${text}`;
    case "assistant": {
      const toolCalls = message.tool_calls ?? [];
      if (toolCalls.length === 0) return `[ASSISTANT]: ${text}`;
      return `[ASSISTANT]: ${text}\n[Tool calls: ${toolCalls.map((call) => `${call.function.name}(${argumentValues(call)})`).join(", ")}]`;
    }
  }
}

/**
 * The text a suffix request shows its model: every message of the conversation as the agent sent it
 * (what pruning cleared for the agent stays cleared; nothing is redacted, cut or capped: the provider has
 * read it all before), then the instruction. What the fidelity eval scores as the prompt (`promptRecall`).
 */
export function suffixPromptText(conversation: SummaryConversation, instruction: string): string {
  const calls = callsByResultKey(conversation.messages);
  return [...conversation.messages.map((message) => messageView(message, calls)), `[USER]: ${instruction}`].join("\n\n");
}
