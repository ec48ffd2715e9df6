/**
 * The scan, the compressor's first step: one pass over the conversation records what the later steps
 * (plan boundaries → prune → summarize → assemble) look up again and again — which messages hold an
 * earlier summary and the newest of them, the real user turns, the last visible assistant reply, the
 * tool-call groups, and, for compress(), where a trailing group of in-flight tool calls starts. The
 * later steps read from the index instead of walking and parsing the messages again. Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { pendingToolCallsStart } from "../messages/toolPairs.js";
import { isVisibleAssistantReply } from "./content.js";
import { hasCompactionNote, isPureSummary, parseSummaryMessage, summaryTurn, type ParsedSummary } from "./earlierSummaries.js";

/** What the later steps of a compaction look up in one conversation, found in one pass. */
export interface ConversationIndex {
  /** The indexed messages. */
  readonly messages: readonly ChatMessage[];
  /** Leading system messages. */
  readonly leadingSystem: number;
  /** For each message, the summary an earlier compaction left in it (pure or merged into its text); undefined elsewhere. */
  readonly summaries: readonly (ParsedSummary | undefined)[];
  /** Index of the newest message holding an earlier summary; -1 when none. */
  readonly latestSummary: number;
  /** True when no earlier compaction left its system note or a summary message. */
  readonly isFirstCompaction: boolean;
  /** Indices of the real user turns (user messages that are not pure summaries), ascending. */
  readonly realUsers: readonly number[];
  /** Index of the last assistant reply with visible text of its own (a summary merged into it does not count); -1 when none. */
  readonly lastReply: number;
  /** `turnsBefore[i]`: messages before `i` that are turns to summarize (anything but a pure summary); length + 1 entries. */
  readonly turnsBefore: Int32Array;
  /** Tool-call groups, by their calls: indices of the assistant messages with tool calls, ascending. */
  readonly callers: readonly number[];
  /** Tool-call groups, by their results: indices of the tool results, ascending. */
  readonly results: readonly number[];
  /**
   * `groupStart[i]`: for a tool result, the assistant whose run of results it sits in (itself when no
   * assistant precedes the run); for any other message, and at `length`, `i` itself. A boundary moved
   * there does not split a call from its results (what `alignBoundaryBackward` answers).
   */
  readonly groupStart: Int32Array;
  /** `runEnd[i]`: the first index at or after `i` that is not a tool result (what `alignBoundaryForward` answers); length + 1 entries. */
  readonly runEnd: Int32Array;
}

/** Indexes `messages` in one pass (see {@link ConversationIndex}). */
export function indexConversation(messages: readonly ChatMessage[]): ConversationIndex {
  const n = messages.length;
  const summaries = new Array<ParsedSummary | undefined>(n);
  const realUsers: number[] = [];
  const callers: number[] = [];
  const results: number[] = [];
  const turnsBefore = new Int32Array(n + 1);
  const groupStart = new Int32Array(n + 1);
  const runEnd = new Int32Array(n + 1);
  let leadingSystem = 0;
  let latestSummary = -1;
  let lastReply = -1;
  let runStart = -1;
  for (let i = 0; i < n; i++) {
    const message = messages[i]!;
    const role = message.role;
    let turn = true;
    groupStart[i] = i;
    if (role === "tool") {
      if (runStart === -1) runStart = i;
      if (runStart > 0 && messages[runStart - 1]!.role === "assistant") groupStart[i] = runStart - 1;
      results.push(i);
    } else {
      if (runStart !== -1) runEnd.fill(i, runStart, i);
      runStart = -1;
      if (role === "system" && leadingSystem === i) leadingSystem++;
      if (role === "user" || role === "assistant") {
        const summary = parseSummaryMessage(message);
        summaries[i] = summary;
        if (summary !== undefined) latestSummary = i;
        turn = !isPureSummary(message, summary);
        if (role === "user" && turn) realUsers.push(i);
        if (role === "assistant") {
          if (summary === undefined ? isVisibleAssistantReply(message) : summary.rest.trim() !== "") lastReply = i;
          if (message.tool_calls) callers.push(i);
        }
      }
    }
    runEnd[i] = i;
    turnsBefore[i + 1] = turnsBefore[i]! + (turn ? 1 : 0);
  }
  if (runStart !== -1) runEnd.fill(n, runStart, n);
  groupStart[n] = n;
  runEnd[n] = n;
  return {
    messages,
    leadingSystem,
    summaries,
    latestSummary,
    isFirstCompaction: latestSummary === -1 && !hasCompactionNote(messages[0]),
    realUsers,
    lastReply,
    turnsBefore,
    callers,
    results,
    groupStart,
    runEnd,
  };
}

/** True when `[from, to)` of the indexed conversation holds a turn to summarize. */
export function hasTurnsBetween(index: ConversationIndex, from: number, to: number): boolean {
  return to > from && index.turnsBefore[to]! - index.turnsBefore[from]! > 0;
}

/**
 * What `turnsForSummary` makes of `source[from, to)`, read from the index instead of parsing each
 * message again: earlier pure summaries dropped, merged ones reduced to their own text. `source` is the
 * indexed conversation or a pruned copy of it (pruning changes neither roles nor the text of user and
 * assistant messages).
 */
export function turnsBetween(index: ConversationIndex, source: readonly ChatMessage[], from: number, to: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = from; i < to; i++) {
    const turn = summaryTurn(source[i]!, index.summaries[i]);
    if (turn !== undefined) out.push(turn);
  }
  return out;
}

/** compress()'s input, scanned: the settled part, indexed, and the in-flight tool-call group kept apart. */
export interface ScannedConversation {
  /** Where the trailing group of in-flight tool calls starts (`pendingToolCallsStart`); -1 when none. */
  pendingStart: number;
  /** The messages a compaction works on: all of them, or those before the in-flight group. */
  settled: ChatMessage[];
  /** The in-flight group, appended unchanged after the compaction (empty when none). */
  inFlight: ChatMessage[];
  /** The index of {@link settled}. */
  index: ConversationIndex;
}

/**
 * The scan of compress()'s input: tool calls still running at the end (their results not all in) stay
 * out of the compaction; the rest is indexed once.
 */
export function scanConversation(messages: ChatMessage[]): ScannedConversation {
  const pendingStart = pendingToolCallsStart(messages);
  const settled = pendingStart > 0 ? messages.slice(0, pendingStart) : messages;
  const inFlight = pendingStart > 0 ? messages.slice(pendingStart) : [];
  return { pendingStart, settled, inFlight, index: indexConversation(settled) };
}
