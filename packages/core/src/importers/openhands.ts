/**
 * OpenHands event streams → OpenAI chat messages. Reads an event list (JSON array, as in
 * `tests/runtime/trajs/*.json`), one record `{history: [...]}`, or eval output JSONL (one record a line,
 * each with its own `history`: one conversation per record).
 *
 * Decisions:
 * - An action with `tool_call_metadata` → an assistant message built from the recorded model response
 *   (`model_response.choices[0].message`: its content and tool calls); actions of the same response
 *   share one message. An observation with `tool_call_metadata` → a `tool` message (its `content`).
 * - `message` actions → user or assistant messages (by `source`), the `system` action → the system
 *   message; observations without tool metadata (e.g. `error`) → user messages with their content.
 * - Bookkeeping events (agent state changes, `recall` and `null` events) are skipped silently; other
 *   actions without tool metadata are skipped with a warning.
 * - A call with no observation (typically the final `finish`) is left out of `tool_calls` and reported.
 */
import { z } from "zod";
import type { ChatMessage, ContentPart, ToolCall } from "../messages/schema.js";
import { assembleConversation, textOfParts, type SourcedMessage } from "./assemble.js";
import { describeValue, isRecord, parseJsonLines, tryParseJson, zodErrorLine } from "./jsonInput.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

const ResponseMessageSchema = z.looseObject({
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  tool_calls: z
    .array(z.looseObject({ id: z.string(), function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }) }))
    .nullish(),
});

const ToolCallMetadataSchema = z.looseObject({
  function_name: z.string(),
  tool_call_id: z.string(),
  model_response: z
    .looseObject({ id: z.string().nullish(), choices: z.array(z.looseObject({ message: ResponseMessageSchema.nullish() })).nullish() })
    .nullish(),
});

const EventSchema = z.looseObject({
  id: z.number().nullish(),
  source: z.string().nullish(),
  action: z.string().nullish(),
  observation: z.string().nullish(),
  message: z.string().nullish(),
  content: z.string().nullish(),
  args: z.record(z.string(), z.unknown()).nullish(),
  tool_call_metadata: ToolCallMetadataSchema.nullish(),
});
type OpenHandsEvent = z.infer<typeof EventSchema>;

const SILENT_ACTIONS = new Set(["change_agent_state", "recall", "null"]);
const SILENT_OBSERVATIONS = new Set(["agent_state_changed", "recall", "null"]);

/** One conversation found in the input. */
interface OpenHandsRecord {
  events: unknown[];
  /** Prefix of every warning place (`file:3: history` or `file: events`). */
  where: string;
  instanceId?: string;
}

/** An import result for one record of a multi-record file. */
export interface OpenHandsRecordResult extends ImportResult {
  /** 0-based record index in the file. */
  record: number;
  instanceId?: string;
}

/** Options of {@link importOpenHands}. */
export interface OpenHandsImportOptions extends ImporterOptions {
  /** 0-based record of an eval JSONL file; default the longest (most events). */
  record?: number;
}

function readRecords(text: string, fileName: string, warnings: string[]): OpenHandsRecord[] {
  const whole = tryParseJson(text);
  if (Array.isArray(whole)) return [{ events: whole, where: `${fileName}: ` }];
  if (isRecord(whole) && Array.isArray(whole.history)) return [recordOf(whole, `${fileName}: history`)];
  const records: OpenHandsRecord[] = [];
  for (const line of parseJsonLines(text)) {
    const where = `${fileName}:${line.line}`;
    if (line.error !== undefined) warnings.push(`${where}: ${line.error}; line skipped`);
    else if (isRecord(line.value) && Array.isArray(line.value.history)) records.push(recordOf(line.value, `${where}: history`));
    else warnings.push(`${where}: ${describeValue(line.value)} without a "history" list; line skipped`);
  }
  if (records.length === 0) throw new TranscriptImportError(`${fileName}: no OpenHands event list or records with "history" found`);
  return records;
}

function recordOf(value: Record<string, unknown>, where: string): OpenHandsRecord {
  const instanceId = typeof value.instance_id === "string" ? value.instance_id : undefined;
  return { events: value.history as unknown[], where, ...(instanceId === undefined ? {} : { instanceId }) };
}

function toolCallsOf(message: z.infer<typeof ResponseMessageSchema> | undefined): ToolCall[] {
  return (message?.tool_calls ?? []).map((call) => ({
    id: call.id,
    type: "function" as const,
    function: { name: call.function.name, arguments: call.function.arguments ?? "{}" },
  }));
}

function contentOf(content: string | unknown[] | null | undefined): ChatMessage["content"] {
  if (content === undefined || content === null) return null;
  return typeof content === "string" ? content : textOfParts(content);
}

/** The text of a message action plus its images, as chat content. */
function messageContent(event: OpenHandsEvent): ChatMessage["content"] {
  const text = typeof event.args?.content === "string" ? event.args.content : (event.message ?? "");
  const images = Array.isArray(event.args?.image_urls) ? event.args.image_urls.filter((u): u is string => typeof u === "string") : [];
  if (images.length === 0) return text;
  const parts: ContentPart[] = [{ type: "text", text }, ...images.map((url) => ({ type: "image_url", image_url: { url } }))];
  return parts;
}

/** Converts the events of one conversation into sourced messages. */
function convertEvents(record: OpenHandsRecord, warnings: string[]): SourcedMessage[] {
  const items: SourcedMessage[] = [];
  const byResponse = new Map<string, ChatMessage>();
  record.events.forEach((raw, index) => {
    const parsed = EventSchema.safeParse(raw);
    const label = isRecord(raw) && typeof raw.id === "number" ? ` (event id ${raw.id})` : "";
    const where = `${record.where}[${index}]${label}`;
    if (!parsed.success) {
      warnings.push(`${where}: malformed event; skipped: ${zodErrorLine(parsed.error)}`);
      return;
    }
    const event = parsed.data;
    const meta = event.tool_call_metadata ?? undefined;
    if (event.action != null && meta !== undefined) {
      const responseId = meta.model_response?.id ?? undefined;
      const existing = responseId === undefined ? undefined : byResponse.get(responseId);
      const message = existing ?? { role: "assistant" as const, content: null };
      if (existing === undefined) {
        const response = meta.model_response?.choices?.[0]?.message ?? undefined;
        message.content = contentOf(response?.content);
        const calls = toolCallsOf(response);
        if (calls.length > 0) message.tool_calls = calls;
        if (responseId !== undefined) byResponse.set(responseId, message);
        items.push({ message, where });
      }
      if (!(message.tool_calls ?? []).some((call) => call.id === meta.tool_call_id)) {
        const args = JSON.stringify(event.args ?? {});
        message.tool_calls = [...(message.tool_calls ?? []), { id: meta.tool_call_id, type: "function", function: { name: meta.function_name, arguments: args } }];
        warnings.push(`${where}: the model response does not list call ${JSON.stringify(meta.tool_call_id)}; built from the action's args`);
      }
    } else if (event.observation != null && meta !== undefined) {
      items.push({ message: { role: "tool", tool_call_id: meta.tool_call_id, content: event.content ?? event.message ?? "" }, where });
    } else if (event.action === "system") {
      items.push({ message: { role: "system", content: typeof event.args?.content === "string" ? event.args.content : (event.message ?? "") }, where });
    } else if (event.action === "message") {
      items.push({ message: { role: event.source === "user" ? "user" : "assistant", content: messageContent(event) }, where });
    } else if (event.action != null) {
      if (!SILENT_ACTIONS.has(event.action)) warnings.push(`${where}: ${event.action} action without tool_call_metadata; skipped`);
    } else if (event.observation != null) {
      if (!SILENT_OBSERVATIONS.has(event.observation)) {
        items.push({ message: { role: "user", content: event.content ?? event.message ?? "" }, where });
      }
    } else {
      warnings.push(`${where}: event is neither an action nor an observation; skipped`);
    }
  });
  return items;
}

/** Imports every conversation of an OpenHands file (one result per record; an event list is one record). */
export function importOpenHandsRecords(text: string, options: ImporterOptions = {}): OpenHandsRecordResult[] {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const readWarnings: string[] = [];
  const records = readRecords(text, fileName, readWarnings);
  return records.map((record, index) => {
    const warnings = index === 0 ? [...readWarnings] : [];
    const messages = assembleConversation(convertEvents(record, warnings), warnings);
    return { format: "openhands", messages, warnings, record: index, ...(record.instanceId === undefined ? {} : { instanceId: record.instanceId }) };
  });
}

/**
 * Imports one conversation of an OpenHands file: `options.record` (0-based), or by default the longest
 * record (most events; the first of equals). Picking among several records is noted in the warnings.
 */
export function importOpenHands(text: string, options: OpenHandsImportOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const readWarnings: string[] = [];
  const records = readRecords(text, fileName, readWarnings);
  let chosen = options.record;
  if (chosen === undefined) {
    chosen = 0;
    records.forEach((r, i) => {
      if (r.events.length > (records[chosen ?? 0]?.events.length ?? 0)) chosen = i;
    });
  }
  const record = records[chosen];
  if (record === undefined || !Number.isInteger(chosen)) {
    throw new TranscriptImportError(`${fileName}: record ${chosen} does not exist (the file has ${records.length} record(s), numbered from 0)`);
  }
  const warnings = [...readWarnings];
  if (records.length > 1) {
    const id = record.instanceId === undefined ? "" : ` (${record.instanceId})`;
    const why = options.record === undefined ? ", the longest; pass record to choose another" : "";
    warnings.push(`${fileName}: imported record ${chosen}${id} of ${records.length}, ${record.events.length} events${why}`);
  }
  const messages = assembleConversation(convertEvents(record, warnings), warnings);
  return { format: "openhands", messages, warnings };
}
