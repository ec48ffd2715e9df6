/**
 * OpenAI chat-format transcripts: a JSON array of messages, `{messages: [...]}`, or a litellm completion
 * log `{messages, response}` (the response's first choice message is appended, since the model's answer
 * is part of the conversation). `null` values of optional fields (`tool_calls: null`, …) and empty
 * `tool_calls` lists are dropped; everything else is kept as is, then checked with `parseMessages`.
 */
import { z } from "zod";
import { InvalidMessagesError, parseMessages, type ChatMessage } from "../messages/schema.js";
import { assembleConversation } from "./assemble.js";
import { describeValue, isRecord, parseJsonDocument, zodErrorLine } from "./jsonInput.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

const LogSchema = z.looseObject({
  messages: z.array(z.unknown()),
  response: z.looseObject({ choices: z.array(z.looseObject({ message: z.unknown() })).optional() }).nullish(),
});

const OPTIONAL_FIELDS = ["tool_calls", "tool_call_id", "name", "function_call"] as const;

/** A raw message with `null` optional fields removed and missing `content` set to `null`. */
function normalize(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out: Record<string, unknown> = { ...raw };
  for (const key of OPTIONAL_FIELDS) if (out[key] === null) delete out[key];
  if (Array.isArray(out.tool_calls) && out.tool_calls.length === 0) delete out.tool_calls;
  if (!("content" in out)) out.content = null;
  return out;
}

/** The raw message list of `document` and a label for each entry. */
function rawMessages(document: unknown, fileName: string): { list: unknown[]; labels: string[] } {
  if (Array.isArray(document)) return { list: document, labels: document.map((_, i) => `${fileName}: [${i}]`) };
  const log = LogSchema.safeParse(document);
  if (!log.success) {
    throw new TranscriptImportError(`${fileName}: expected an array of messages or {messages: [...]}, got ${describeValue(document)}: ${zodErrorLine(log.error)}`);
  }
  const list = [...log.data.messages];
  const labels = list.map((_, i) => `${fileName}: messages[${i}]`);
  const answer = log.data.response?.choices?.[0]?.message;
  if (answer !== undefined && answer !== null) {
    list.push(answer);
    labels.push(`${fileName}: response.choices[0].message`);
  }
  return { list, labels };
}

/** Imports OpenAI chat messages (array, `{messages}` or a litellm log with `response`). */
export function importOpenAIMessages(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const { list, labels } = rawMessages(parseJsonDocument(text, fileName), fileName);
  let messages: ChatMessage[];
  try {
    messages = parseMessages(list.map(normalize), fileName);
  } catch (error) {
    if (error instanceof InvalidMessagesError) throw new TranscriptImportError(error.message);
    throw error;
  }
  const warnings: string[] = [];
  const items = messages.map((message, i) => ({ message, where: labels[i] ?? `${fileName}: [${i}]` }));
  return { format: "openai", messages: assembleConversation(items, warnings), warnings };
}
