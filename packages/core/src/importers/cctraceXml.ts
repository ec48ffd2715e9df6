/**
 * cctrace XML exports of Claude Code sessions (`conversation_full.xml`, root `<claude-session>`) →
 * OpenAI chat messages. Each `<message>` under `<messages>` is one Claude Code record.
 *
 * Decisions (the same as for Claude Code JSONL, see `claudeCode.ts`):
 * - Only records whose `<role>` is `user` or `assistant` become messages; others (`summary`) are
 *   skipped silently. `<usage>`, `<tool-execution-metadata>` and the other metadata are not copied,
 *   except the `timestamp` attribute, kept on the message for replays.
 * - `<content>` is either plain text or blocks: `<text>` → content (joined with a blank line),
 *   `<tool-use id name><input>JSON</input>` → a tool call (`arguments` = the input JSON, compacted),
 *   `<tool-result tool-use-id>` → a `tool` message, `<thinking>` is dropped.
 * - Assistant records are one content block each: records sharing `<request-id>` merge into the first
 *   message with that id (cctrace exports no `message.id`; the request id plays its part).
 * - cctrace writes a non-string tool result as Python `str()` of its blocks; when such a text parses as
 *   a list of `{type: "text"}` blocks, their texts are joined. The export keeps no `is_error` flag.
 * - Unknown blocks and records without content are reported with `file:line` and skipped.
 */
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { assembleConversation, textOfParts, type SourcedMessage } from "./assemble.js";
import { tryParseJson } from "./jsonInput.js";
import { parseJsonOrPythonLiteral } from "./pythonLiteral.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";
import { childElement, childElements, ownText, parseXml, XmlSyntaxError, type XmlElement } from "./xmlReader.js";

/** The root element name of a cctrace export. */
export const CCTRACE_ROOT = "claude-session";

/** `true` when `text` looks like a cctrace XML export (its root element opens near the start). */
export function looksLikeCctraceXml(text: string): boolean {
  const head = text.slice(0, 2000).trimStart();
  return (head.startsWith("<?xml") || head.startsWith("<")) && new RegExp(`<${CCTRACE_ROOT}[\\s>]`).test(head);
}

/** The trimmed text of child `name` of `element`, if present. */
function childText(element: XmlElement, name: string): string | undefined {
  const child = childElement(element, name);
  return child === undefined ? undefined : ownText(child).trim();
}

/** Tool-call arguments from an `<input>` text: the JSON compacted, or the text as written (reported). */
function toolArguments(raw: string, where: string, warnings: string[]): string {
  if (raw.trim() === "") return "{}";
  const parsed = tryParseJson(raw);
  if (parsed === undefined) {
    warnings.push(`${where}: tool-use input is not JSON; kept as written`);
    return raw;
  }
  return JSON.stringify(parsed);
}

/** A tool result's text; a Python `str()` of text blocks is flattened to their texts. */
function toolResultText(raw: string): string {
  if (!/^\s*\[\s*\{/.test(raw)) return raw;
  try {
    const value = parseJsonOrPythonLiteral(raw);
    if (Array.isArray(value) && value.length > 0 && value.every((b) => typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text")) {
      return textOfParts(value);
    }
  } catch {
    // not a literal: the text as written
  }
  return raw;
}

/** What one record's `<content>` holds. */
interface RecordContent {
  texts: string[];
  calls: ToolCall[];
  results: ChatMessage[];
}

/** Reads the blocks of a `<content>` element, reporting the ones that are not understood. */
function readContent(content: XmlElement, fileName: string, warnings: string[]): RecordContent {
  const out: RecordContent = { texts: [], calls: [], results: [] };
  const blocks = childElements(content);
  if (blocks.length === 0) {
    const text = ownText(content);
    if (text.trim() !== "") out.texts.push(text);
    return out;
  }
  for (const block of blocks) {
    const where = `${fileName}:${block.line}`;
    switch (block.name) {
      case "text":
        out.texts.push(ownText(block));
        break;
      case "thinking":
      case "redacted-thinking":
        break;
      case "tool-use": {
        const { id, name } = block.attributes;
        if (id === undefined || id === "" || name === undefined || name === "") {
          warnings.push(`${where}: <tool-use> without id or name; skipped`);
          break;
        }
        const input = childElement(block, "input");
        out.calls.push({ id, type: "function", function: { name, arguments: toolArguments(input === undefined ? "" : ownText(input), where, warnings) } });
        break;
      }
      case "tool-result": {
        const id = block.attributes["tool-use-id"];
        if (id === undefined || id === "") {
          warnings.push(`${where}: <tool-result> without tool-use-id; skipped`);
          break;
        }
        out.results.push({ role: "tool", tool_call_id: id, content: toolResultText(ownText(block)) });
        break;
      }
      default:
        warnings.push(`${where}: <${block.name}> block not understood; skipped`);
    }
  }
  return out;
}

/** Parses the document, turning syntax errors into an import error naming `file:line`. */
function readMessages(text: string, fileName: string): XmlElement[] {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new TranscriptImportError(`${fileName}:${error.line}: malformed XML: ${error.message.replace(/^line \d+: /, "")}`);
    throw error;
  }
  if (root.name !== CCTRACE_ROOT) throw new TranscriptImportError(`${fileName}:${root.line}: root element is <${root.name}>, not <${CCTRACE_ROOT}> (a cctrace export)`);
  const messages = childElement(root, "messages");
  if (messages === undefined) throw new TranscriptImportError(`${fileName}: <${CCTRACE_ROOT}> has no <messages> element`);
  return childElements(messages, "message");
}

/** Imports a cctrace XML export (`conversation_full.xml`). */
export function importCctraceXml(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const warnings: string[] = [];
  const items: SourcedMessage[] = [];
  const assistantsByRequest = new Map<string, ChatMessage>();
  let conversational = 0;

  for (const record of readMessages(text, fileName)) {
    const where = `${fileName}:${record.line}`;
    const role = childText(record, "role");
    if (role !== "user" && role !== "assistant") {
      if (role !== undefined) warnings.push(`${where}: message with role ${JSON.stringify(role)}; skipped`);
      continue;
    }
    conversational += 1;
    const contentElement = childElement(record, "content");
    if (contentElement === undefined) {
      warnings.push(`${where}: ${role} message without <content>; skipped`);
      continue;
    }
    const content = readContent(contentElement, fileName, warnings);
    const timestamp = record.attributes.timestamp;
    const stamp = timestamp !== undefined && timestamp !== "" ? { timestamp } : {};
    if (role === "user") {
      for (const result of content.results) items.push({ message: { ...result, ...stamp }, where });
      if (content.calls.length > 0) warnings.push(`${where}: <tool-use> in a user message; skipped`);
      if (content.texts.length > 0) items.push({ message: { role: "user", content: content.texts.join("\n\n"), ...stamp }, where });
      continue;
    }
    if (content.results.length > 0) warnings.push(`${where}: <tool-result> in an assistant message; skipped`);
    const requestId = childText(record, "request-id");
    const existing = requestId === undefined || requestId === "" ? undefined : assistantsByRequest.get(requestId);
    const message: ChatMessage = existing ?? { role: "assistant", content: null, ...stamp };
    for (const text of content.texts) {
      message.content = typeof message.content === "string" && message.content !== "" ? `${message.content}\n\n${text}` : text;
    }
    if (content.calls.length > 0) message.tool_calls = [...(message.tool_calls ?? []), ...content.calls];
    if (existing === undefined) {
      if (requestId !== undefined && requestId !== "") assistantsByRequest.set(requestId, message);
      items.push({ message, where });
    }
  }
  if (conversational === 0) throw new TranscriptImportError(`${fileName}: no user or assistant <message> elements found`);
  return { format: "cctrace-xml", messages: assembleConversation(items, warnings), warnings };
}
