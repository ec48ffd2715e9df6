/**
 * SWE-agent trajectories (`.traj` JSON) → OpenAI chat messages, from the `history` list (what the
 * model was sent). Function-calling trajectories carry `tool_calls` on assistant entries and
 * `tool_call_ids` on `tool` entries, each either a JSON list or a Python `repr()` string; both are
 * parsed. Text-style trajectories (thought and action in the assistant text) become plain
 * user/assistant messages; consecutive user messages (demonstration + task) are kept as they are.
 * Extra SWE-agent fields (`thought`, `action`, `agent`, `message_type`, `is_demo`) are not copied.
 */
import { z } from "zod";
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { assembleConversation, textOfParts, type SourcedMessage } from "./assemble.js";
import { describeValue, parseJsonDocument, zodErrorLine } from "./jsonInput.js";
import { parseJsonOrPythonLiteral } from "./pythonLiteral.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

const HistoryEntrySchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  tool_calls: z.union([z.array(z.unknown()), z.string(), z.null()]).optional(),
  tool_call_ids: z.union([z.array(z.string()), z.string(), z.null()]).optional(),
  tool_call_id: z.string().nullish(),
});

const TrajectorySchema = z.looseObject({ history: z.array(z.unknown()) });

const RawToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional() }),
});

/** Content as the importers emit it: a string when every part is text, else the parts unchanged. */
function normalizeContent(content: string | unknown[] | null | undefined): ChatMessage["content"] {
  if (content === undefined || content === null) return null;
  if (typeof content === "string") return content;
  const allText = content.every((p) => typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text");
  return allText ? textOfParts(content) : (content as ChatMessage["content"]);
}

/** Parses a `tool_calls` value (list, JSON string or Python repr string) into tool calls. */
function readToolCalls(raw: unknown[] | string, where: string, warnings: string[]): ToolCall[] {
  let list: unknown = raw;
  if (typeof raw === "string") {
    try {
      list = parseJsonOrPythonLiteral(raw);
    } catch (error) {
      warnings.push(`${where}: tool_calls string is neither JSON nor a Python literal (${(error as Error).message}); calls skipped`);
      return [];
    }
  }
  if (!Array.isArray(list)) {
    warnings.push(`${where}: tool_calls is ${describeValue(list)}, not a list; calls skipped`);
    return [];
  }
  const calls: ToolCall[] = [];
  list.forEach((item, i) => {
    const parsed = RawToolCallSchema.safeParse(item);
    if (!parsed.success) {
      warnings.push(`${where}: tool_calls[${i}] is not a tool call (${zodErrorLine(parsed.error)}); skipped`);
      return;
    }
    const { id, function: fn } = parsed.data;
    const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {});
    calls.push({ id, type: "function", function: { name: fn.name, arguments: args } });
  });
  return calls;
}

/** The ids a tool entry answers, from `tool_call_ids` (list or repr string) or `tool_call_id`. */
function readToolCallIds(entry: z.infer<typeof HistoryEntrySchema>): string[] {
  const raw = entry.tool_call_ids;
  if (Array.isArray(raw)) return raw;
  if (typeof raw === "string") {
    try {
      const parsed = parseJsonOrPythonLiteral(raw);
      if (Array.isArray(parsed)) return parsed.filter((id): id is string => typeof id === "string");
      if (typeof parsed === "string") return [parsed];
    } catch {
      return raw.trim() === "" ? [] : [raw.trim()];
    }
  }
  return typeof entry.tool_call_id === "string" ? [entry.tool_call_id] : [];
}

/** The messages of one history entry. */
function entryMessages(entry: z.infer<typeof HistoryEntrySchema>, where: string, warnings: string[]): ChatMessage[] {
  const content = normalizeContent(entry.content);
  switch (entry.role) {
    case "system":
    case "user":
      return [{ role: entry.role, content: content ?? "" }];
    case "assistant": {
      const message: ChatMessage = { role: "assistant", content };
      const calls = entry.tool_calls === undefined || entry.tool_calls === null ? [] : readToolCalls(entry.tool_calls, where, warnings);
      if (calls.length > 0) message.tool_calls = calls;
      return [message];
    }
    case "tool": {
      const ids = readToolCallIds(entry);
      if (ids.length === 0) {
        warnings.push(`${where}: tool entry without tool_call_ids; kept as a user message`);
        return [{ role: "user", content: content ?? "" }];
      }
      if (ids.length > 1) warnings.push(`${where}: one observation answers ${ids.length} tool calls; each gets the same text`);
      return ids.map((id) => ({ role: "tool", tool_call_id: id, content: typeof content === "string" ? content : textOfParts(content ?? []) }));
    }
    default:
      warnings.push(`${where}: unknown role ${JSON.stringify(entry.role)}; skipped`);
      return [];
  }
}

/** Imports a SWE-agent `.traj` trajectory from its `history`. */
export function importSweAgent(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const document = TrajectorySchema.safeParse(parseJsonDocument(text, fileName));
  if (!document.success) {
    throw new TranscriptImportError(`${fileName}: not a SWE-agent trajectory: ${zodErrorLine(document.error)}`);
  }
  const warnings: string[] = [];
  const items: SourcedMessage[] = [];
  document.data.history.forEach((raw, index) => {
    const where = `${fileName}: history[${index}]`;
    const entry = HistoryEntrySchema.safeParse(raw);
    if (!entry.success) {
      warnings.push(`${where}: malformed entry; skipped: ${zodErrorLine(entry.error)}`);
      return;
    }
    for (const message of entryMessages(entry.data, where, warnings)) items.push({ message, where });
  });
  return { format: "swe-agent", messages: assembleConversation(items, warnings), warnings };
}
