/** Reads template sections straight out of conversation turns (the ExtractiveSummarizer's extraction step). Pure. */
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { isCompactionSummaryText } from "../messages/compactionMarker.js";
import { toolCallKey } from "../messages/toolPairs.js";
import { stripReasoningBlocks } from "./reasoning.js";
import { contentText } from "./serialize.js";
import type { SectionItems } from "./summaryLayout.js";
import {
  dedupe,
  describeOutcome,
  errorLines,
  findPaths,
  findValues,
  isConstraint,
  isDecision,
  isFailureOutcome,
  isSubstantive,
  sentences,
  shorten,
} from "./extractiveText.js";


/** Argument keys that name the file a tool works on. */
const PATH_KEYS = ["path", "file_path", "filepath", "filename", "file", "target_file", "notebook_path"] as const;
const PATH_LIST_KEYS = ["paths", "files", "file_paths"] as const;
const COMMAND_KEYS = ["command", "cmd", "script"] as const;
/** Editor sub-commands that arrive in a `command` argument next to a `path`. */
const EDITOR_COMMANDS: Record<string, string> = { view: "read", create: "created", str_replace: "edited", insert: "edited", undo_edit: "edited", write: "written" };
const MAX_MENTIONED_FILES = 20;
const MAX_LATER_ASKS = 4;
/** Marks a Goal item that came from a later user message. */
export const LATER_ASK_PREFIX = "Later: ";
/** How a file action reads at the start of a Done item. */
const ACTION_VERB: Record<string, string> = { written: "wrote" };

/** What the turns say, grouped by template section, plus the summaries embedded in them. */
export interface ExtractedTurns {
  sections: SectionItems;
  /** Texts of earlier compaction summaries found among the turns. */
  embeddedSummaries: string[];
}

type Args = Record<string, unknown>;

function parseArgs(raw: string): Args | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Args) : undefined;
  } catch {
    return undefined;
  }
}

function stringArg(args: Args | undefined, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args?.[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

function pathArgs(args: Args | undefined): string[] {
  const paths: string[] = [];
  const single = stringArg(args, PATH_KEYS);
  if (single) paths.push(single);
  for (const key of PATH_LIST_KEYS) {
    const value = args?.[key];
    if (Array.isArray(value)) paths.push(...value.filter((v): v is string => typeof v === "string" && v.trim() !== ""));
  }
  return dedupe(paths);
}

/** read / edited / created / written, from the tool name or an editor sub-command. */
function fileAction(toolName: string, args: Args | undefined): string {
  const sub = stringArg(args, ["command", "mode", "action"]);
  if (sub && EDITOR_COMMANDS[sub]) return EDITOR_COMMANDS[sub]!;
  const name = toolName.toLowerCase();
  if (/create|new_file|mkfile/.test(name)) return "created";
  if (/edit|replace|patch|apply|modify|update|insert/.test(name)) return "edited";
  if (/write|save/.test(name)) return "written";
  if (/read|view|cat|open|show|get|load/.test(name)) return "read";
  if (/delete|remove|rm\b/.test(name)) return "deleted";
  return `used by ${toolName}`;
}

/** Collects facts while walking the turns. */
class Collector {
  readonly asks: string[] = [];
  readonly constraints: string[] = [];
  readonly done: string[] = [];
  readonly pending: string[] = [];
  readonly decisions: string[] = [];
  readonly errorsSeen: string[] = [];
  readonly files = new Map<string, string[]>();
  readonly mentioned: string[] = [];
  readonly latestResultByAction = new Map<string, { label: string; output: string }>();
  readonly values = { versions: [] as string[], ports: [] as string[], urls: [] as string[], ids: [] as string[] };
  lastIntention: string | undefined;
  readonly embeddedSummaries: string[] = [];

  noteFile(path: string, note: string): void {
    const notes = this.files.get(path) ?? [];
    if (!notes.includes(note)) notes.push(note);
    this.files.set(path, notes);
  }

  noteValues(text: string): void {
    const found = findValues(text);
    this.values.versions.push(...found.versions);
    this.values.ports.push(...found.ports);
    this.values.urls.push(...found.urls);
    this.values.ids.push(...found.ids);
  }

  noteMentions(text: string): void {
    for (const path of findPaths(text)) if (!this.files.has(path)) this.mentioned.push(path);
  }

  toolCall(call: ToolCall, output: string | undefined): void {
    const name = call.function.name;
    const args = parseArgs(call.function.arguments);
    const paths = pathArgs(args);
    const command = paths.length === 0 ? stringArg(args, COMMAND_KEYS) : undefined;
    let label: string;
    if (paths.length > 0) {
      const action = fileAction(name, args);
      for (const path of paths) this.noteFile(path, action);
      label = `${ACTION_VERB[action] ?? action} ${paths.join(", ")}`;
    } else if (command) {
      label = `ran \`${shorten(command, 120)}\``;
      this.noteValues(command);
      this.noteMentions(command);
    } else {
      label = `${name}(${shorten(call.function.arguments, 80)})`;
    }
    if (output === undefined) {
      this.pending.push(`awaiting the result of ${label}`);
      return;
    }
    const failed = isFailureOutcome(output);
    const outcome = command || failed || paths.length === 0 ? ` → ${describeOutcome(output)}` : "";
    this.done.push(label + outcome);
    this.latestResultByAction.set(command ?? `${name}:${paths.join(",")}`, { label, output });
  }

  toolResult(output: string): void {
    this.noteValues(output);
    this.noteMentions(output);
    this.errorsSeen.push(...errorLines(output).map((line) => shorten(line, 200)));
  }

  user(text: string): void {
    if (!isSubstantive(text)) return;
    this.asks.push(text);
    for (const sentence of sentences(text)) if (isConstraint(sentence)) this.constraints.push(shorten(sentence, 200));
    this.noteValues(text);
    this.errorsSeen.push(...errorLines(text).map((line) => shorten(line, 200)));
  }

  assistant(text: string): void {
    if (text.trim() === "") return;
    this.lastIntention = text;
    for (const sentence of sentences(text)) if (isDecision(sentence)) this.decisions.push(shorten(sentence, 200));
    this.noteValues(text);
  }
}

function blockers(collector: Collector): Array<{ label: string; text: string }> {
  const out: Array<{ label: string; text: string }> = [];
  for (const { label, output } of collector.latestResultByAction.values()) {
    if (!isFailureOutcome(output)) continue;
    const lines = errorLines(output);
    const detail = lines.length > 0 ? lines.slice(-2).map((line) => shorten(line, 160)).join(" | ") : describeOutcome(output);
    out.push({ label, text: `${label}: ${detail}` });
  }
  return out;
}

function criticalContext(collector: Collector): string[] {
  const out: string[] = [];
  const { versions, ports, urls, ids } = collector.values;
  const list = (label: string, values: string[], max: number) => {
    const unique = dedupe(values).slice(0, max);
    if (unique.length > 0) out.push(`${label}: ${unique.join(", ")}`);
  };
  for (const error of dedupe(collector.errorsSeen).slice(-5)) out.push(`Error seen: ${error}`);
  list("Versions", versions, 8);
  list("Ports", ports, 6);
  list("URLs", urls, 6);
  list("IDs", ids, 8);
  return out;
}

/** Extracts every template section from `messages` (oldest first). Deterministic. */
export function extractSections(messages: ChatMessage[]): ExtractedTurns {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role === "tool" && message.tool_call_id !== undefined) results.set(message.tool_call_id, contentText(message.content));
  }
  const collector = new Collector();
  for (const message of messages) {
    const text = contentText(message.content);
    if (isCompactionSummaryText(text.trimStart())) {
      collector.embeddedSummaries.push(text);
      continue;
    }
    if (message.role === "user") collector.user(text);
    else if (message.role === "tool") collector.toolResult(text);
    else if (message.role === "assistant") {
      collector.assistant(stripReasoningBlocks(text));
      for (const call of message.tool_calls ?? []) collector.toolCall(call, results.get(toolCallKey(call)));
    }
  }

  const [firstAsk, ...laterAsks] = collector.asks;
  const lastAsk = collector.asks[collector.asks.length - 1];
  const inProgress = [
    ...(collector.lastIntention ? [shorten(sentences(collector.lastIntention).slice(0, 2).join(" "), 240)] : []),
    ...collector.pending,
  ];
  const blocked = blockers(collector);
  const files = [
    ...[...collector.files].map(([path, notes]) => `${path} — ${notes.join(", ")}`),
    ...dedupe(collector.mentioned.filter((path) => !collector.files.has(path)))
      .slice(0, MAX_MENTIONED_FILES)
      .map((path) => `${path} — mentioned`),
  ];
  const nextSteps = [
    ...(lastAsk ? [shorten(lastAsk, 240)] : []),
    ...blocked.map((blocker) => `Fix the failure of ${blocker.label}`),
  ];

  return {
    embeddedSummaries: collector.embeddedSummaries,
    sections: {
      "## Goal": [
        ...(firstAsk ? [shorten(firstAsk, 300)] : []),
        ...laterAsks.slice(-MAX_LATER_ASKS).map((ask) => LATER_ASK_PREFIX + shorten(ask, 160)),
      ],
      "## Constraints & Preferences": dedupe(collector.constraints),
      "### Done": dedupe(collector.done),
      "### In Progress": dedupe(inProgress),
      "### Blocked": dedupe(blocked.map((blocker) => blocker.text)),
      "## Key Decisions": dedupe(collector.decisions),
      "## Relevant Files": dedupe(files),
      "## Next Steps": dedupe(nextSteps),
      "## Critical Context": criticalContext(collector),
    },
  };
}
