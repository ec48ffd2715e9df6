/** Reads template sections straight out of conversation turns (the ExtractiveSummarizer's extraction step). Pure. */
import { PRUNED_TOOL_PLACEHOLDER } from "../messages/prunedOutput.js";
import { answerOfExit, isReadOnlyCommand } from "../facts/commandKinds.js";
import { reportedExit, visibleExitCode } from "../facts/exitStatus.js";
import { failedRead, ownErrorSignatures, toolResultErrors } from "../facts/errorSignatures.js";
import { readsContent, toolCallTarget, type ToolCallTarget } from "../facts/toolCallTargets.js";
import { observationIndexes, textActionOf, userAskOf, userWords } from "../facts/userAsks.js";
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { isCompactionSummaryText } from "../messages/compactionMarker.js";
import { toolCallKey } from "../messages/toolPairs.js";
import { stripReasoningBlocks } from "./reasoning.js";
import { contentText } from "./serialize.js";
import type { SectionItems } from "./summaryLayout.js";
import { actingFirst, answerOutcome, collapseRepeats, commandLabel, normalizeCommand } from "./extractiveCommands.js";
import { FIXED_LATER_MARK } from "./summaryPacking.js";
import { dedupe, describeOutcome, findFolders, findPaths, findValues, isConstraint, isDecision, sentences, shorten } from "./extractiveText.js";

/** Marks a Goal item that came from a later user message. */
export const LATER_ASK_PREFIX = "Later: ";

/** Characters kept of the first ask, of later asks, of a command, of an error line. */
const FIRST_ASK_CHARS = 300;
const LATER_ASK_CHARS = 160;
const COMMAND_CHARS = 64;
const ERROR_CHARS = 160;
/** Relevant Files note of a path the user named. */
const NAMED_BY_USER = "named by the user";
/** Relevant Files note of a file or folder a command names (beyond the files the tool call acts on). */
const IN_A_COMMAND = "in a command";
/** A tool result saying which file an edit changed (Claude Code's Edit/Write, also in SpecStory exports). */
const FILE_UPDATED = /^The file (\S+) has been (updated|created)\b/;

/** Tools that run a subagent and answer with its report (Claude Code's `Task` and `Agent`). */
const SUBAGENT_TOOL = /^(?:Task|Agent|dispatch_agent|subagent)$/i;

/** What the turns say, grouped by template section, plus the summaries embedded in them. */
export interface ExtractedTurns {
  sections: SectionItems;
  /** Texts of earlier compaction summaries found among the turns. */
  embeddedSummaries: string[];
  /** The labels (as Done writes them) of the commands whose whole script acts (facts/commandKinds.ts). */
  actingCommands: ReadonlySet<string>;
}

/** What came back for one tool call. */
interface CallResult {
  output: string;
  flagged: boolean;
}

/** How a command shows in the summary: its distinctive part (extractiveCommands.ts), cut to {@link COMMAND_CHARS}. */
function commandLine(command: string): string {
  return commandLabel(command, COMMAND_CHARS);
}

/**
 * Characters of one output's error lines the offline summary reads: the bound a cleared output keeps in
 * the agent's context (compressor/clearedEvidence.ts), whether the output reached it cleared or whole
 * (the summary model is shown more); the offline summary's room goes to actions first.
 */
const OUTPUT_ERROR_CHARS = 300;

/** The leading `lines` (trimmed, blanks left out) within {@link OUTPUT_ERROR_CHARS} in all (the first always). */
function leadingEvidence(lines: readonly string[]): string[] {
  const out: string[] = [];
  let room = OUTPUT_ERROR_CHARS;
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== "")) {
    if (line.length > room && out.length > 0) break;
    out.push(line);
    room -= line.length;
  }
  return out;
}

/**
 * The errors and outcome of a result, read from the original output or from phase 1's cleared form. The
 * output of a call that `reads` content is content: only the program's own complaints (its `command`'s
 * first word, or the shell) are errors there, unless the read failed outright.
 */
function resultFacts(result: CallResult, reads: boolean, command: string | undefined): { errors: string[]; exit: number | undefined; outcome: string } {
  if (result.output.startsWith(PRUNED_TOOL_PLACEHOLDER)) {
    const [descriptor = "", ...kept] = result.output.split("\n");
    const exit = visibleExitCode(descriptor);
    const failed = exit !== undefined && exit !== 0 ? exit : undefined;
    return { errors: leadingEvidence(kept), exit: failed, outcome: exit !== undefined ? `exit ${exit}` : "" };
  }
  if (reads && !failedRead(result.output, result.flagged)) {
    const program = /^\s*(?:sudo\s+)?(\S+)/.exec(normalizeCommand(command ?? ""))?.[1];
    return { errors: program === undefined ? [] : ownErrorSignatures(result.output, program), exit: undefined, outcome: "" };
  }
  const errors = toolResultErrors(result.output, result.flagged);
  return { errors: leadingEvidence(errors.signatures), exit: errors.failedExit, outcome: describeOutcome(result.output) };
}

/**
 * The facts of a result whose exit 1 answered a question (a search that found nothing, a test that was
 * false, files that differ: facts/commandKinds.ts) as that answer: no failure, no error, the answer as
 * its outcome. Any other result's facts as they are.
 */
function answeredFacts(facts: ReturnType<typeof resultFacts>, result: CallResult, command: string | undefined): ReturnType<typeof resultFacts> {
  if (command === undefined) return facts;
  // the exit an output reports, also when its error lines explained it (a difference that looks like one)
  const answer = answerOfExit(command, facts.exit ?? (result.output.startsWith(PRUNED_TOOL_PLACEHOLDER) ? undefined : reportedExit(result.output)));
  // a search or test that complained (`find: 'x': No such file or directory`) failed; a comparison prints content
  if (answer === undefined || (facts.errors.length > 0 && answer !== "differ")) return facts;
  return { errors: [], exit: undefined, outcome: answerOutcome(answer) };
}

/** The latest result of one command or file action. */
interface LatestResult {
  label: string;
  /** Its errors, when it failed. */
  failure: string | undefined;
  /** The tool call it came from (Collector.step). */
  at: number;
  /** The files its failure names (and the files it acted on). */
  paths: string[];
}

/** True when `a` and `b` name one file, one maybe shorter (`pkg/a.go`, `/repo/pkg/a.go`). */
function sameFile(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, "");
  const y = b.replace(/^\.\//, "");
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * True when a failure was fixed by later edits: it names files, and every one of them was changed by a
 * later tool call (a later run of the same command replaces the failure itself, see latestByAction).
 */
export function fixedByLaterEdit(failure: { at: number; paths: readonly string[] }, lastChange: ReadonlyMap<string, number>): boolean {
  if (failure.paths.length === 0) return false;
  return failure.paths.every((path) => [...lastChange].some(([changed, step]) => step > failure.at && sameFile(changed, path)));
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
  readonly latestByAction = new Map<string, LatestResult>();
  /** The tool call being read (counted from 1), and the last call that changed each file. */
  step = 0;
  readonly lastChange = new Map<string, number>();
  readonly values = { versions: [] as string[], ports: [] as string[], urls: [] as string[], ids: [] as string[] };
  lastIntention: string | undefined;
  readonly embeddedSummaries: string[] = [];
  readonly actingCommands = new Set<string>();

  noteFile(path: string, note: string): void {
    if (/^(edited|created|written|deleted)$/.test(note)) this.lastChange.set(path, this.step);
    const notes = this.files.get(path) ?? [];
    if (!notes.includes(note)) notes.push(note);
    this.files.set(path, notes);
  }

  /** Notes the files and folders `text` names that no earlier note holds (a first mention is enough to list them). */
  noteNamed(text: string, note: string): void {
    for (const path of [...findPaths(text), ...findFolders(text)]) if (!this.files.has(path)) this.noteFile(path, note);
  }

  noteValues(text: string): void {
    const found = findValues(text);
    this.values.versions.push(...found.versions);
    this.values.ports.push(...found.ports);
    this.values.urls.push(...found.urls);
    this.values.ids.push(...found.ids);
  }

  noteErrors(errors: readonly string[]): void {
    this.errorsSeen.push(...errors.map((line) => shorten(line, ERROR_CHARS)));
  }

  toolCall(call: ToolCall, result: CallResult | undefined): void {
    this.step++;
    const target: ToolCallTarget = toolCallTarget(call.function.name, call.function.arguments);
    const { command } = target;
    const changes = target.paths.length > 0 && /^(edited|created|written|deleted)$/.test(target.action);
    const label = target.paths.length > 0 ? `${target.action === "written" ? "wrote" : target.action} ${target.paths.join(", ")}` : command ? `ran \`${commandLine(command)}\`` : undefined;
    for (const path of target.paths) this.noteFile(path, target.action);
    if (command) {
      if (!isReadOnlyCommand(command)) this.actingCommands.add(commandLine(command));
      this.noteNamed(command, IN_A_COMMAND);
      this.noteValues(command);
    }
    if (result === undefined) {
      if (label) this.pending.push(`awaiting the result of ${label}`);
      return;
    }
    const updated = FILE_UPDATED.exec(result.output.trimStart());
    if (updated) this.noteFile(updated[1]!, updated[2] === "created" ? "created" : "edited");
    const reads = readsContent(call.function.name, call.function.arguments);
    const { errors, exit, outcome } = answeredFacts(resultFacts(result, reads, command), result, command);
    this.noteErrors(errors);
    const failure = exit !== undefined ? `exit ${exit}` : errors[0];
    if (failure !== undefined) for (const path of target.paths) this.noteFile(path, "error");
    if (command) {
      // An output that only repeats the command (an `echo`) says nothing new.
      const said = outcome !== "" && !command.includes(outcome) ? outcome : failure !== undefined ? shorten(failure, 120) : "";
      this.done.push(said !== "" ? `${label} → ${said}` : label!);
    } else if (changes) {
      this.done.push(failure !== undefined ? `${label} → failed: ${shorten(failure, 120)}` : label!);
    }
    if (label) {
      const said = failure === undefined ? undefined : errors.slice(-2).map((e) => shorten(e, 160)).join(" | ") || failure;
      const paths = said === undefined ? [] : dedupe([...target.paths, ...errors.flatMap((e) => findPaths(e))]);
      this.latestByAction.set(command ?? `${call.function.name}:${target.paths.join(",")}`, { label, failure: said, at: this.step, paths });
    }
    if (!reads) this.noteValues(result.output);
    // a subagent's report is another agent's account of its work: the files it names count as mentioned
    if (SUBAGENT_TOOL.test(call.function.name)) this.noteNamed(result.output, "mentioned");
  }

  user(message: ChatMessage, observation: boolean): void {
    const ask = userAskOf(message, observation);
    if (ask === undefined) {
      // Not the user's words (an observation, a command's echo): only the errors it shows count.
      this.noteErrors(toolResultErrors(userWords(contentText(message.content)), false).signatures);
      return;
    }
    this.asks.push(ask);
    for (const sentence of sentences(ask)) if (isConstraint(sentence)) this.constraints.push(shorten(sentence, 200));
    for (const path of [...findPaths(ask), ...findFolders(ask)]) this.noteFile(path, NAMED_BY_USER);
    this.noteValues(ask);
    this.noteErrors(toolResultErrors(ask, false).signatures);
  }

  assistant(text: string): void {
    if (text.trim() === "") return;
    this.lastIntention = text;
    for (const sentence of sentences(text)) if (isDecision(sentence)) this.decisions.push(shorten(sentence, 200));
    this.noteNamed(text, "mentioned");
    this.noteValues(text);
  }
}

function criticalContext(collector: Collector): string[] {
  const out: string[] = [];
  const { versions, ports, urls, ids } = collector.values;
  const list = (label: string, values: string[], max: number) => {
    const unique = dedupe(values).slice(0, max);
    if (unique.length > 0) out.push(`${label}: ${unique.join(", ")}`);
  };
  for (const error of dedupe(collector.errorsSeen)) out.push(`Error seen: ${error}`);
  list("Versions", versions, 8);
  list("Ports", ports, 6);
  list("URLs", urls, 6);
  list("IDs", ids, 8);
  return out;
}

/** Extracts every template section from `messages` (oldest first). Deterministic. */
export function extractSections(messages: ChatMessage[]): ExtractedTurns {
  const results = new Map<string, CallResult>();
  for (const message of messages) {
    if (message.role === "tool" && message.tool_call_id !== undefined) {
      results.set(message.tool_call_id, { output: contentText(message.content), flagged: (message as { is_error?: unknown }).is_error === true });
    }
  }
  const answered = new Set<string>();
  for (const message of messages) for (const call of message.tool_calls ?? []) answered.add(toolCallKey(call));
  const collector = new Collector();
  const observations = observationIndexes(messages);
  messages.forEach((message, index) => {
    const text = contentText(message.content);
    if (isCompactionSummaryText(text.trimStart())) {
      collector.embeddedSummaries.push(text);
      return;
    }
    if (message.role === "user") collector.user(message, observations.has(index));
    else if (message.role === "tool") {
      // A result whose call was compacted earlier: its errors still count.
      if (message.tool_call_id !== undefined && !answered.has(message.tool_call_id)) collector.noteErrors(toolResultErrors(text, false).signatures);
    } else if (message.role === "assistant") {
      collector.assistant(stripReasoningBlocks(text));
      for (const call of message.tool_calls ?? []) collector.toolCall(call, results.get(toolCallKey(call)));
      // a text-action agent (SWE-agent without function calling) acts in a block its next turn answers
      const action = observations.has(index + 1) ? textActionOf(message) : undefined;
      if (action !== undefined) {
        const call: ToolCall = { id: `text-action-${index}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: action }) } };
        collector.toolCall(call, { output: contentText(messages[index + 1]!.content), flagged: false });
      }
    }
  });

  const [firstAsk, ...laterAsks] = collector.asks;
  const lastAsk = collector.asks[collector.asks.length - 1];
  const inProgress = [...(collector.lastIntention ? [shorten(sentences(collector.lastIntention).slice(0, 2).join(" "), 240)] : []), ...collector.pending];
  // errors later fixed (the same command passing again, or every file they name edited since) go to Done
  const failed = [...collector.latestByAction.values()].filter((entry) => entry.failure !== undefined);
  const fixed = failed.filter((entry) => fixedByLaterEdit(entry, collector.lastChange));
  const blocked = failed.filter((entry) => !fixed.includes(entry));
  for (const entry of fixed) collector.done.push(`${entry.label} ${FIXED_LATER_MARK} ${shorten(entry.failure!, ERROR_CHARS)}`);
  const files = [...collector.files].map(([path, notes]) => {
    const specific = notes.length > 1 ? notes.filter((note) => note !== "mentioned") : notes;
    return `${path} — ${specific.join(", ")}`;
  });
  const blockedItems = dedupe(blocked.map((blocker) => `${blocker.label}: ${blocker.failure}`));
  const nextSteps = [...(lastAsk ? [shorten(lastAsk, LATER_ASK_CHARS)] : []), ...blocked.map((blocker) => `Fix the failure of ${blocker.label}`)];

  return {
    embeddedSummaries: collector.embeddedSummaries,
    actingCommands: collector.actingCommands,
    sections: {
      "## Goal": [...(firstAsk ? [shorten(firstAsk, FIRST_ASK_CHARS)] : []), ...laterAsks.map((ask) => LATER_ASK_PREFIX + shorten(ask, LATER_ASK_CHARS))],
      "## Constraints & Preferences": dedupe(collector.constraints),
      "### Done": actingFirst(collapseRepeats(collector.done), collector.actingCommands),
      "### In Progress": dedupe(inProgress),
      "### Blocked": blockedItems,
      "## Key Decisions": dedupe(collector.decisions),
      "## Relevant Files": dedupe(files),
      "## Next Steps": dedupe(nextSteps),
      "## Critical Context": criticalContext(collector),
    },
  };
}
