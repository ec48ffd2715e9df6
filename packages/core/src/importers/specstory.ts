/**
 * SpecStory markdown (v2.1.0, any agent: Claude Code, Codex CLI, Gemini CLI, …) → OpenAI chat
 * messages. The file is read by `specstoryMarkdown.ts`; this module turns its sections into messages.
 *
 * Decisions:
 * - A `_**User**_` section → one user message (its text as written). An `_**Agent**_` (Cursor:
 *   `_**Assistant**_`, whose tool renderings `specstoryCursor.ts` reads) section's text
 *   and tool blocks join the current assistant message; text (or thinking) that follows a tool block
 *   starts a new one, since the model wrote it after seeing the results. Consecutive tool blocks are
 *   one assistant message with parallel calls.
 * - A tool block → a tool call with a synthesized id `specstory_<n>` (1, 2, … in file order), name =
 *   `data-tool-name`, `arguments` = `{"input": "<the rendered input>"}` (SpecStory keeps only a
 *   rendering of the real arguments; `{}` when it shows none) and a `tool` message with the output
 *   fence's text. A block that shows no output (SpecStory omits some, e.g. edit confirmations) gets an
 *   empty result, reported once per file; `**Error:**` outputs keep `is_error: true`.
 * - Thinking blocks are dropped; `<synthetic>` agent messages (Claude Code's own notices) are kept.
 * - Sidechain sections (sub-agents) are skipped, with one warning giving their count. Agent sections
 *   before the first user section (e.g. "Resumed from … via SpecStory") are left out and reported.
 * - Header times are kept as `timestamp` (ISO 8601) for replays.
 */
import type { ChatMessage } from "../messages/schema.js";
import { assembleConversation, type SourcedMessage } from "./assemble.js";
import { readSpecStorySections, type SpecStorySection, type SpecStoryToolBlock } from "./specstoryMarkdown.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

export { looksLikeSpecStory } from "./specstoryMarkdown.js";

/** The prefix of the tool call ids the SpecStory importer synthesizes (`specstory_1`, …). */
export const SPECSTORY_CALL_ID_PREFIX = "specstory_";

/** Mutable state of one conversion. */
interface Conversion {
  fileName: string;
  items: SourcedMessage[];
  warnings: string[];
  /** The assistant message text and calls are added to; `undefined` when the next part starts one. */
  current: ChatMessage | undefined;
  calls: number;
  withoutOutput: number;
}

function stamp(section: SpecStorySection): { timestamp?: string } {
  return section.timestamp === undefined ? {} : { timestamp: section.timestamp };
}

/** The current assistant message, started (at `line` of `section`) when there is none. */
function assistant(state: Conversion, section: SpecStorySection, line: number): ChatMessage {
  if (state.current === undefined) {
    state.current = { role: "assistant", content: null, ...stamp(section) };
    state.items.push({ message: state.current, where: `${state.fileName}:${line}` });
  }
  return state.current;
}

function addToolBlock(state: Conversion, section: SpecStorySection, block: SpecStoryToolBlock): void {
  const message = assistant(state, section, block.line);
  state.calls += 1;
  const id = `${SPECSTORY_CALL_ID_PREFIX}${state.calls}`;
  const args = block.input === "" ? "{}" : JSON.stringify({ input: block.input });
  if (block.name === "") state.warnings.push(`${state.fileName}:${block.line}: tool-use block without data-tool-name; named "unknown"`);
  message.tool_calls = [...(message.tool_calls ?? []), { id, type: "function", function: { name: block.name === "" ? "unknown" : block.name, arguments: args } }];
  if (block.output === undefined) state.withoutOutput += 1;
  const result: ChatMessage = { role: "tool", tool_call_id: id, content: block.output ?? "", ...stamp(section) };
  if (block.isError) result.is_error = true;
  state.items.push({ message: result, where: `${state.fileName}:${block.line}` });
}

function addAgentSection(state: Conversion, section: SpecStorySection): void {
  for (const part of section.parts) {
    if (part.kind === "tool") {
      addToolBlock(state, section, part);
      continue;
    }
    if ((state.current?.tool_calls?.length ?? 0) > 0) state.current = undefined;
    if (part.kind === "thinking") continue;
    const message = assistant(state, section, part.line);
    message.content = typeof message.content === "string" && message.content !== "" ? `${message.content}\n\n${part.text}` : part.text;
  }
}

function addUserSection(state: Conversion, section: SpecStorySection): void {
  state.current = undefined;
  const text = section.parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("\n\n");
  if (text === "") {
    state.warnings.push(`${state.fileName}:${section.line}: user section without text; skipped`);
    return;
  }
  state.items.push({ message: { role: "user", content: text, ...stamp(section) }, where: `${state.fileName}:${section.line}` });
}

/** Imports a SpecStory markdown transcript (`.specstory/history/*.md`). */
export function importSpecStory(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const warnings: string[] = [];
  const sections = readSpecStorySections(text, fileName, warnings);
  if (sections.length === 0) {
    throw new TranscriptImportError(`${fileName}: no SpecStory "_**User**_" or "_**Agent**_" section headers found`);
  }
  const state: Conversion = { fileName, items: [], warnings, current: undefined, calls: 0, withoutOutput: 0 };
  let sidechains = 0;
  let seenUser = false;
  for (const section of sections) {
    if (section.sidechain) {
      sidechains += 1;
      continue;
    }
    if (section.role === "user") {
      seenUser = true;
      addUserSection(state, section);
    } else if (!seenUser) {
      if (section.parts.some((p) => p.kind !== "thinking")) warnings.push(`${fileName}:${section.line}: agent section before the first user section; left out`);
    } else {
      addAgentSection(state, section);
    }
  }
  if (sidechains > 0) warnings.push(`${fileName}: skipped ${sidechains} sidechain section(s) (sub-agent conversations)`);
  if (state.withoutOutput > 0) warnings.push(`${fileName}: ${state.withoutOutput} of ${state.calls} tool block(s) show no output; their results are empty`);
  if (state.items.length === 0) throw new TranscriptImportError(`${fileName}: no user section with text found`);
  return { format: "specstory", messages: assembleConversation(state.items, warnings), warnings };
}
