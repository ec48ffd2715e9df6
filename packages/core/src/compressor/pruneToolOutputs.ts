/**
 * Pruning (no LLM), the step after planning boundaries: outside the protected tail, large tool outputs
 * are cleared to a placeholder plus a one-line descriptor, identical older outputs become a pointer to
 * the newer copy, and long tool-call arguments are truncated JSON-aware. Pure: the input is never
 * mutated; untouched messages are reused.
 */
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { toolCallKey } from "../messages/toolPairs.js";
import { contentSize, messageText } from "./content.js";
import { withoutAnsi } from "../facts/ansi.js";
import { describeToolOutput } from "./toolOutputDescriptor.js";
import { boundedEvidence, evidenceCandidates, KEPT_EVIDENCE_CHARS, SUMMARY_EVIDENCE_CHARS } from "./clearedEvidence.js";
import { MAX_TOOL_ARGUMENT_CHARS, truncateToolArguments } from "./toolArguments.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../messages/prunedOutput.js";
import { indexConversation, type ConversationIndex } from "./conversationIndex.js";

/** Marks an older tool output whose identical content appears again later in the conversation. */
export const DUPLICATE_TOOL_OUTPUT_POINTER = "[Duplicate tool output — same as a later result]";
/** Tool outputs longer than this (characters) are cleared. */
export const PRUNE_MIN_CHARS = 200;

/** Options of {@link pruneOldToolResults}. */
export interface PruneOptions {
  /** Index of the first protected message (the tail); messages from here on are left untouched. */
  protectedFrom: number;
  /** Outputs longer than this are cleared (default 200). */
  minChars?: number;
  /** Tool-call arguments longer than this are truncated (default 2,000). */
  maxArgumentChars?: number;
  /**
   * The {@link PruneResult.memo} of an earlier pruning of the same conversation: an output still at the
   * same index, cleared the same way, reuses its cleared copy (the same object) instead of being described again.
   */
  memo?: PruneMemo | undefined;
  /**
   * The scan of `messages`, or of the conversation they were pruned from (pruning keeps roles and call
   * ids): only its tool calls and results are visited. Made here when not given.
   */
  index?: ConversationIndex | undefined;
}

/** How one pruning cleared its conversation's outputs, by index: for the next pruning of that conversation. */
export interface PruneMemo {
  /** The pruned conversation's messages (the input). */
  readonly messages: readonly ChatMessage[];
  /** The cleared copy made for `messages[i]`, with what it was made from. */
  readonly cleared: readonly (ClearedEntry | undefined)[];
}

/** The pruned conversation and what pruning did. */
export interface PruneResult {
  messages: ChatMessage[];
  /** Tool outputs replaced by the placeholder and a descriptor. */
  cleared: number;
  /** Older duplicates replaced by a pointer (counted apart from `cleared`). */
  dedup: number;
  /** Assistant tool calls whose arguments were truncated. */
  truncatedArguments: number;
  /** What to hand the next pruning of this conversation (see {@link PruneOptions.memo}). */
  memo: PruneMemo;
}

/** True when a message starts with the pruning placeholder (already cleared). */
export function isClearedToolOutput(message: ChatMessage): boolean {
  return typeof message.content === "string" && message.content.startsWith(PRUNED_TOOL_PLACEHOLDER);
}

/** The calls of the assistant messages before `end`, by result key (`call_id ?? id`) and by `id`. */
function callsBefore(messages: readonly ChatMessage[], end: number, callers: readonly number[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const i of callers) {
    if (i >= end) break;
    for (const call of messages[i]!.tool_calls!) {
      calls.set(toolCallKey(call), call);
      if (!calls.has(call.id)) calls.set(call.id, call);
    }
  }
  return calls;
}

/** Characters from each end of an output that, with its length, group look-alike outputs. */
const FINGERPRINT_CHARS = 48;
/** Distinct look-alikes kept per group (a later duplicate of one beyond them is cleared, just not labelled). */
const MAX_LOOKALIKES = 16;

/**
 * Indices (below `end`) of large tool outputs whose exact content appears again in a later tool result.
 */
function olderDuplicates(messages: readonly ChatMessage[], end: number, minChars: number, results: readonly number[]): Set<number> {
  // Outputs are grouped by a short fingerprint (length and both ends), so only look-alikes are compared
  // in full: no hashing of every output, and no pairwise comparison of merely same-length ones.
  const groups = new Map<string, string[]>();
  const duplicates = new Set<number>();
  for (let p = results.length - 1; p >= 0; p--) {
    const i = results[p]!;
    const content = messages[i]!.content;
    if (typeof content !== "string" || content.length <= minChars) continue;
    const key = `${content.length}:${content.slice(0, FINGERPRINT_CHARS)}${content.slice(-FINGERPRINT_CHARS)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [content]);
    else if (i < end && group.includes(content)) duplicates.add(i);
    else if (group.length < MAX_LOOKALIKES) group.push(content);
  }
  return duplicates;
}

function truncateCalls(message: ChatMessage, maxChars: number): ChatMessage | undefined {
  const calls = message.tool_calls;
  if (!calls || !calls.some((c) => c.function.arguments.length > maxChars)) return undefined;
  return {
    ...message,
    tool_calls: calls.map((call) => {
      const args = truncateToolArguments(call.function.arguments, maxChars);
      return args === call.function.arguments ? call : { ...call, function: { ...call.function, arguments: args } };
    }),
  };
}

/**
 * Clears large tool outputs before `protectedFrom`: each becomes `PRUNED_TOOL_PLACEHOLDER` followed on the
 * same line by a descriptor (`[terminal] ran \`pytest\` -> exit 1, 40 lines output`) and, on the lines
 * below, the evidence of a failure, at most about 300 characters (clearedEvidence.ts). An output whose
 * exact text appears again later keeps only a pointer (the newest copy is the one that stays useful).
 */
export function pruneOldToolResults(messages: readonly ChatMessage[], options: PruneOptions): PruneResult {
  const end = Math.max(0, Math.min(options.protectedFrom, messages.length));
  const minChars = options.minChars ?? PRUNE_MIN_CHARS;
  const maxArgumentChars = options.maxArgumentChars ?? MAX_TOOL_ARGUMENT_CHARS;
  const out = messages.slice();
  const cleared: (ClearedEntry | undefined)[] = [];
  const result: PruneResult = { messages: out, cleared: 0, dedup: 0, truncatedArguments: 0, memo: { messages, cleared } };
  if (end === 0) return result;
  const earlier = options.memo;
  const index = options.index ?? indexConversation(messages);
  const calls = callsBefore(messages, end, index.callers);
  const duplicates = olderDuplicates(messages, end, minChars, index.results);
  for (const i of index.callers) {
    if (i >= end) break;
    const truncated = truncateCalls(messages[i]!, maxArgumentChars);
    if (truncated) {
      out[i] = truncated;
      result.truncatedArguments++;
    }
  }
  for (const i of index.results) {
    if (i >= end) break;
    const message = messages[i]!;
    if (isClearedToolOutput(message)) continue;
    const size = contentSize(message);
    if (size <= minChars) continue;
    const call = message.tool_call_id !== undefined ? calls.get(message.tool_call_id) : undefined;
    const duplicate = duplicates.has(i);
    const known = earlier !== undefined && earlier.messages[i] === message ? earlier.cleared[i] : undefined;
    const entry = clearedEntry(message, call?.function.name ?? message.name, call?.function.arguments, duplicate, size, known);
    cleared[i] = entry;
    out[i] = entry.cleared;
    if (duplicate) result.dedup++;
    else result.cleared++;
  }
  return result;
}

/** A cleared copy and what it was made from. */
export interface ClearedEntry {
  content: ChatMessage["content"];
  name: string | undefined;
  args: string | undefined;
  duplicate: boolean;
  cleared: ChatMessage;
  /** The cleared content's first line: the placeholder and the descriptor. */
  head: string;
  /** The lines its evidence is chosen from, before the bound (none for a duplicate). */
  evidence: readonly string[];
}

/**
 * The cleared copy of `message`: `known` (an earlier pruning's entry for the same message object) when it
 * was made from the same content, call and duplicate status — messages are immutable, so repeated
 * compactions of a growing conversation describe each output once and keep its token count memoized —
 * else a new one.
 */
function clearedEntry(
  message: ChatMessage,
  name: string | undefined,
  args: string | undefined,
  duplicate: boolean,
  size: number,
  known: ClearedEntry | undefined,
): ClearedEntry {
  if (known && known.content === message.content && known.name === name && known.args === args && known.duplicate === duplicate) return known;
  const text = withoutAnsi(messageText(message));
  const descriptor = describeToolOutput(name, args, text, size);
  // The newer copy of a duplicate keeps the errors; a cleared output keeps its error lines below the descriptor.
  const evidence = duplicate ? [] : evidenceCandidates(name, args, text, (message as { is_error?: unknown }).is_error === true);
  const head = duplicate ? `${PRUNED_TOOL_PLACEHOLDER} ${DUPLICATE_TOOL_OUTPUT_POINTER} ${descriptor}` : `${PRUNED_TOOL_PLACEHOLDER} ${descriptor}`;
  return { content: message.content, name, args, duplicate, cleared: { ...message, content: withEvidence(head, evidence, KEPT_EVIDENCE_CHARS) }, head, evidence };
}

/** `head` with the lines of `evidence` that fit `max` characters below it. */
function withEvidence(head: string, evidence: readonly string[], max: number): string {
  const lines = boundedEvidence(evidence, max);
  return lines.length === 0 ? head : [head, ...lines].join("\n");
}

/**
 * How the summary model reads `message`, cleared by this pruning as `entry` (the summarized range leaves
 * the conversation, so the agent's bound does not apply): an output no longer than
 * {@link SUMMARY_EVIDENCE_CHARS} whole, as its evidence would cost as much; a longer one that kept
 * evidence with up to that much of it; a descriptor alone, or a duplicate's pointer, as cleared.
 */
export function clearedForSummary(message: ChatMessage, entry: ClearedEntry): ChatMessage {
  if (entry.duplicate) return entry.cleared;
  if (contentSize(message) <= SUMMARY_EVIDENCE_CHARS) return message;
  const content = entry.cleared.content;
  if (typeof content !== "string" || !content.includes("\n")) return entry.cleared;
  // an entry is kept across the compactions of a growing conversation: its summary form is made once
  let seen = summaryForms.get(entry);
  if (seen === undefined) summaryForms.set(entry, (seen = { ...message, content: withEvidence(entry.head, entry.evidence, SUMMARY_EVIDENCE_CHARS) }));
  return seen;
}

/** The summary model's form of each cleared output ({@link clearedForSummary}), by its entry (an entry belongs to one message object). */
const summaryForms = new WeakMap<ClearedEntry, ChatMessage>();
