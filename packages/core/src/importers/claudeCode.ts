/**
 * Claude Code transcripts → OpenAI chat messages. Reads the session JSONL Claude Code writes (one record
 * a line), a JSON array of such records, and the web export `{loglines: [...]}`.
 *
 * Decisions:
 * - Only `user` and `assistant` records become messages; `system` (hook summaries, local command
 *   notices), `summary`, `file-history-snapshot`, `queue-operation` and other record types are not
 *   model context and are skipped silently.
 * - Assistant records are one content block each: records sharing `message.id` merge into the first
 *   message with that id. `text` blocks → `content` (joined with a blank line), `tool_use` blocks →
 *   `tool_calls` (`arguments` = `JSON.stringify(input)`), `thinking`/`redacted_thinking` are dropped.
 * - A user record's `tool_result` blocks → one `tool` message each (`tool_call_id` = `tool_use_id`,
 *   content flattened to text, `is_error: true` kept); its text/image blocks → a user message after them.
 * - `isMeta` user records (hook feedback, command caveats) were sent to the model, so they are kept.
 *   `isSidechain` records (sub-agent conversations) are skipped, with one warning giving their count.
 * - A tool call with no result is left out of `tool_calls` and reported (see `assemble.ts`).
 * - Malformed lines and records, and a record nested too deeply to read, give a warning naming
 *   `file:line` and are skipped; the rest imports.
 */
import { z } from "zod";
import type { ChatMessage, ContentPart, ToolCall } from "../messages/schema.js";
import { assembleConversation, textOfParts, type SourcedMessage } from "./assemble.js";
import { describeValue, isRecord, parseJsonLines, tryParseJson, zodErrorLine } from "./jsonInput.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

const MessageRecordSchema = z.looseObject({
  type: z.enum(["user", "assistant"]),
  isSidechain: z.boolean().nullish(),
  /** ISO time the record was written; kept on the message so a replay can use real request times. */
  timestamp: z.string().nullish(),
  message: z.looseObject({
    id: z.string().nullish(),
    content: z.union([z.string(), z.array(z.unknown())]),
  }),
});

const TextBlockSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
const ThinkingBlockSchema = z.looseObject({ type: z.enum(["thinking", "redacted_thinking"]) });
const ToolUseBlockSchema = z.looseObject({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
const ImageBlockSchema = z.looseObject({
  type: z.literal("image"),
  source: z.looseObject({ type: z.string(), media_type: z.string().optional(), data: z.string().optional(), url: z.string().optional() }),
});
const ToolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  is_error: z.boolean().nullish(),
});
const BlockSchema = z.discriminatedUnion("type", [TextBlockSchema, ThinkingBlockSchema, ToolUseBlockSchema, ImageBlockSchema, ToolResultBlockSchema]);
type Block = z.infer<typeof BlockSchema>;

/** One raw record and where it came from. */
interface RawRecord {
  value: unknown;
  where: string;
}

/** The records of `text`: JSONL lines, a JSON array of records, or the web export's `loglines`. */
function readRecords(text: string, fileName: string, warnings: string[]): RawRecord[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    const whole = tryParseJson(text);
    if (isRecord(whole) && Array.isArray(whole.loglines)) {
      return whole.loglines.map((value, i) => ({ value, where: `${fileName}: loglines[${i}]` }));
    }
    if (Array.isArray(whole)) return whole.map((value, i) => ({ value, where: `${fileName}: [${i}]` }));
  }
  const records: RawRecord[] = [];
  for (const line of parseJsonLines(text)) {
    const where = `${fileName}:${line.line}`;
    if (line.error !== undefined) warnings.push(`${where}: ${line.error}; line skipped`);
    else records.push({ value: line.value, where });
  }
  return records;
}

function imagePart(block: z.infer<typeof ImageBlockSchema>): ContentPart {
  const { source } = block;
  const url = source.type === "base64" ? `data:${source.media_type ?? "application/octet-stream"};base64,${source.data ?? ""}` : (source.url ?? "");
  return { type: "image_url", image_url: { url } };
}

/** Tool-result content as text; images become a `[image: type]` marker (reported). */
function toolResultText(content: string | unknown[] | null | undefined, where: string, warnings: string[]): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const part of content) {
    const image = ImageBlockSchema.safeParse(part);
    if (image.success) {
      texts.push(`[image: ${image.data.source.media_type ?? "unknown type"}]`);
      warnings.push(`${where}: image in a tool result replaced by a text marker`);
    } else {
      texts.push(textOfParts([part]));
    }
  }
  return texts.join("\n");
}

/** Parses the content blocks of a record, reporting (and skipping) the ones that are not understood. */
function readBlocks(content: string | unknown[], where: string, warnings: string[]): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const blocks: Block[] = [];
  content.forEach((raw, i) => {
    const parsed = BlockSchema.safeParse(raw);
    if (parsed.success) blocks.push(parsed.data);
    else if (!isRecord(raw)) warnings.push(`${where}: content[${i}] is ${describeValue(raw)}, not a content block; skipped`);
    else warnings.push(`${where}: content[${i}] (type ${JSON.stringify(raw.type)}) not understood; skipped: ${zodErrorLine(parsed.error)}`);
  });
  return blocks;
}

/**
 * Adds the blocks of an assistant record to `message` (the first message with this `message.id`). All
 * or nothing: `message` changes only after every block was read (a block may throw, e.g. too deep).
 */
function addAssistantBlocks(message: ChatMessage, blocks: Block[], where: string, warnings: string[]): void {
  let content = message.content;
  const calls: ToolCall[] = [];
  const skipped: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") {
      content = typeof content === "string" && content !== "" ? `${content}\n\n${block.text}` : block.text;
    } else if (block.type === "tool_use") {
      calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    } else if (block.type !== "thinking" && block.type !== "redacted_thinking") {
      skipped.push(`${where}: ${block.type} block in an assistant message; skipped`);
    }
  }
  message.content = content;
  if (calls.length > 0) message.tool_calls = [...(message.tool_calls ?? []), ...calls];
  warnings.push(...skipped);
}

/** The messages of a user record: one `tool` message per result, then the text/images as a user message. */
function userMessages(blocks: Block[], where: string, warnings: string[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    if (block.type === "tool_result") {
      const result: ChatMessage = { role: "tool", tool_call_id: block.tool_use_id, content: toolResultText(block.content, where, warnings) };
      if (block.is_error === true) result.is_error = true;
      out.push(result);
    } else if (block.type === "text") {
      parts.push({ type: "text", text: block.text });
    } else if (block.type === "image") {
      parts.push(imagePart(block));
    } else {
      warnings.push(`${where}: ${block.type} block in a user message; skipped`);
    }
  }
  if (parts.length > 0) {
    const textOnly = parts.every((p) => p.type === "text");
    out.push({ role: "user", content: textOnly ? textOfParts(parts, "\n\n") : parts });
  }
  return out;
}

/** Imports a Claude Code transcript (JSONL, record array or `{loglines}` web export). */
export function importClaudeCode(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const warnings: string[] = [];
  const records = readRecords(text, fileName, warnings);
  const items: SourcedMessage[] = [];
  const assistantsById = new Map<string, ChatMessage>();
  let sidechains = 0;
  let messageRecords = 0;

  for (const { value, where } of records) {
    // The record's warnings, kept only when the whole record could be read.
    let noted: string[] = [];
    try {
      if (!isRecord(value)) {
        noted.push(`${where}: record is ${describeValue(value)}, not an object; skipped`);
        continue;
      }
      if (typeof value.type !== "string") {
        noted.push(`${where}: record has no "type"; skipped`);
        continue;
      }
      if (value.type !== "user" && value.type !== "assistant") continue;
      const parsed = MessageRecordSchema.safeParse(value);
      if (!parsed.success) {
        noted.push(`${where}: malformed ${value.type} record; skipped: ${zodErrorLine(parsed.error)}`);
        continue;
      }
      const record = parsed.data;
      if (record.isSidechain === true) {
        sidechains += 1;
        continue;
      }
      messageRecords += 1;
      const blocks = readBlocks(record.message.content, where, noted);
      const stamp = typeof record.timestamp === "string" ? { timestamp: record.timestamp } : {};
      if (record.type === "user") {
        for (const message of userMessages(blocks, where, noted)) items.push({ message: { ...message, ...stamp }, where });
        continue;
      }
      const id = record.message.id ?? undefined;
      const existing = id === undefined ? undefined : assistantsById.get(id);
      if (existing !== undefined) {
        addAssistantBlocks(existing, blocks, where, noted);
        continue;
      }
      const message: ChatMessage = { role: "assistant", content: null, ...stamp };
      addAssistantBlocks(message, blocks, where, noted);
      if (id !== undefined) assistantsById.set(id, message);
      items.push({ message, where });
    } catch (error) {
      // A record nested deeper than the stack reaches (JSON.stringify of a tool input) costs that record only.
      if (!(error instanceof RangeError)) throw error;
      noted = [`${where}: record nested too deeply to read (${error.message}); skipped`];
    } finally {
      warnings.push(...noted);
    }
  }
  if (sidechains > 0) warnings.push(`${fileName}: skipped ${sidechains} sidechain record(s) (sub-agent conversations)`);
  if (messageRecords === 0) {
    throw new TranscriptImportError(`${fileName}: no Claude Code user/assistant records found`);
  }
  return { format: "claude-code", messages: assembleConversation(items, warnings), warnings };
}
