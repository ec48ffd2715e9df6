/**
 * mini-swe-agent trajectories (`.traj.json`: `{info, messages, trajectory_format}`) → OpenAI chat
 * messages. `trajectory_format` `mini-swe-agent-1.1` is v2, `mini-swe-agent-1` is v1.
 *
 * Decisions (where the format says what an action is):
 * - A message with `tool_calls` (v2 tool-calling models) keeps them; `role: "tool"` messages answer them.
 * - A v2 text-based answer lists its parsed commands in `extra.actions`: each becomes a `bash` call
 *   (`{"command": …}`, id `mswea_<n>`), answered by the user message that follows (the observation).
 * - A v1 answer's action is its one ```` ```bash ```` block (v1 rejects an answer with none or several,
 *   so such an answer stays text and the format-error reply stays a user message).
 * - The final `role: "exit"` message (v2) answers the calls still open (the submit command) with its
 *   content, the submission; otherwise it is left out, as it is the agent's exit record, not a turn.
 * - The assistant text is kept whole (the command in it too); `extra` is not copied.
 */
import { z } from "zod";
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { assembleConversation, textOfParts, type SourcedMessage } from "./assemble.js";
import { isRecord, parseJsonDocument, zodErrorLine } from "./jsonInput.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

/** The prefix of the tool call ids the importer synthesizes for text-based actions (`mswea_1`, …). */
export const MINI_SWE_AGENT_CALL_ID_PREFIX = "mswea_";

const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  tool_calls: z.array(z.unknown()).nullish(),
  tool_call_id: z.string().nullish(),
  extra: z.looseObject({ actions: z.array(z.looseObject({ command: z.string() })).optional() }).optional(),
});

const ToolCallSchema = z.looseObject({
  id: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional() }),
});

const TrajectorySchema = z.looseObject({ messages: z.array(z.unknown()), trajectory_format: z.string().optional() });

const V1_ACTION = /```bash\s*\n([\s\S]*?)\n```/g;

/** `true` for a parsed document that is a mini-swe-agent trajectory. */
export function isMiniSweAgentTrajectory(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.messages)) return false;
  if (typeof value.trajectory_format === "string" && value.trajectory_format.startsWith("mini-swe-agent")) return true;
  return isRecord(value.info) && typeof value.info.mini_version === "string";
}

function text(content: string | unknown[] | null | undefined): string {
  if (content === undefined || content === null) return "";
  return typeof content === "string" ? content : textOfParts(content);
}

/** Mutable state of one conversion. */
interface Conversion {
  items: SourcedMessage[];
  warnings: string[];
  /** Ids of text-based calls waiting for the observation that follows. */
  awaiting: string[];
  /** Ids of every call not answered yet (for the exit message). */
  open: Set<string>;
  synthesized: number;
}

function bashCall(state: Conversion, command: string): ToolCall {
  state.synthesized += 1;
  return { id: `${MINI_SWE_AGENT_CALL_ID_PREFIX}${state.synthesized}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } };
}

function answer(state: Conversion, ids: string[], content: string, where: string): void {
  for (const id of ids) {
    state.items.push({ message: { role: "tool", tool_call_id: id, content }, where });
    state.open.delete(id);
  }
}

function addAssistant(state: Conversion, message: z.infer<typeof MessageSchema>, version1: boolean, where: string): void {
  const out: ChatMessage = { role: "assistant", content: message.content === undefined || message.content === null ? null : text(message.content) };
  let calls: ToolCall[] = [];
  if ((message.tool_calls?.length ?? 0) > 0) {
    (message.tool_calls ?? []).forEach((raw, i) => {
      const parsed = ToolCallSchema.safeParse(raw);
      if (!parsed.success) {
        state.warnings.push(`${where}: tool_calls[${i}] is not a tool call (${zodErrorLine(parsed.error)}); skipped`);
        return;
      }
      const fn = parsed.data.function;
      calls.push({ id: parsed.data.id, type: "function", function: { name: fn.name, arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}) } });
    });
  } else if (message.extra?.actions !== undefined) {
    calls = message.extra.actions.map((action) => bashCall(state, action.command));
    state.awaiting = calls.map((c) => c.id);
  } else if (version1) {
    const blocks = [...text(message.content ?? null).matchAll(V1_ACTION)];
    if (blocks.length === 1) calls = [bashCall(state, (blocks[0] as RegExpExecArray)[1] as string)];
    state.awaiting = calls.map((c) => c.id);
  }
  if (calls.length > 0) out.tool_calls = calls;
  for (const call of calls) state.open.add(call.id);
  state.items.push({ message: out, where });
}

function addMessage(state: Conversion, message: z.infer<typeof MessageSchema>, version1: boolean, where: string): void {
  const awaiting = state.awaiting;
  state.awaiting = [];
  switch (message.role) {
    case "system":
      state.items.push({ message: { role: "system", content: text(message.content) }, where });
      return;
    case "user":
      if (awaiting.length > 0) answer(state, awaiting, text(message.content), where);
      else state.items.push({ message: { role: "user", content: text(message.content) }, where });
      return;
    case "assistant":
      addAssistant(state, message, version1, where);
      return;
    case "tool":
      if (typeof message.tool_call_id !== "string") {
        state.warnings.push(`${where}: tool message without tool_call_id; kept as a user message`);
        state.items.push({ message: { role: "user", content: text(message.content) }, where });
      } else {
        answer(state, [message.tool_call_id], text(message.content), where);
      }
      return;
    case "exit":
      answer(state, [...state.open], text(message.content), where);
      return;
    default:
      state.warnings.push(`${where}: unknown role ${JSON.stringify(message.role)}; skipped`);
  }
}

/** Imports a mini-swe-agent trajectory (v1 or v2) from its `messages`. */
export function importMiniSweAgent(textInput: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const document = TrajectorySchema.safeParse(parseJsonDocument(textInput, fileName));
  if (!document.success) throw new TranscriptImportError(`${fileName}: not a mini-swe-agent trajectory: ${zodErrorLine(document.error)}`);
  const version1 = document.data.trajectory_format === "mini-swe-agent-1";
  const state: Conversion = { items: [], warnings: [], awaiting: [], open: new Set(), synthesized: 0 };
  document.data.messages.forEach((raw, index) => {
    const where = `${fileName}: messages[${index}]`;
    const message = MessageSchema.safeParse(raw);
    if (!message.success) {
      state.warnings.push(`${where}: malformed message; skipped: ${zodErrorLine(message.error)}`);
      state.awaiting = [];
      return;
    }
    addMessage(state, message.data, version1, where);
  });
  return { format: "mini-swe-agent", messages: assembleConversation(state.items, state.warnings), warnings: state.warnings };
}
