/**
 * Compaction: the pure planners (fresh-tail boundary, leaf chunk, condense run) and the bounded pass
 * loop that applies them until the assembled context is at or below its target. A pass is committed
 * only when it makes the context smaller, and at most `maxPasses` run, so it can never loop.
 */
import { alignBoundaryBackward, countingIdOf, SIGNED_COMPACTION_TAG, type ChatMessage, type Summarizer, type TokenCounter } from "./core.js";
import { assembleContext, type LoadedItem } from "./assemble.js";
import { searchableText, summaryId } from "./messageText.js";
import type { ItemRef, StoredMessage, SummaryKind, SummaryRecord } from "./store/LcmStore.js";
import { summarizerView } from "./summarizerView.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { CompactionAbortedError, summarizeWithLadder, truncationMarker, type SummarizerHealth } from "./summarize.js";

/**
 * Index in `raw` (the uncompacted messages, oldest first) where the protected tail starts: the last
 * `freshTail` messages stay raw. The tail starts at an assistant message when one lies at most another
 * `freshTail` messages before that (so no call is split from its results and the summary block before
 * it stays a message of its own, leaving the tail verbatim); otherwise the boundary is only aligned
 * pair-safe, so a long run of user messages (a gateway's night of messages) stays compactable.
 */
export function freshTailStart(raw: readonly ChatMessage[], freshTail: number): number {
  if (raw.length === 0) return 0;
  const start = Math.max(0, raw.length - freshTail);
  for (let i = start; i >= Math.max(0, start - freshTail); i--) if (raw[i]!.role === "assistant") return i;
  return alignBoundaryBackward([...raw], start);
}

/** A planned pass: replace context items `fromOrd..toOrd` with one summary over `sources`. */
export interface PassPlan {
  kind: SummaryKind;
  depth: number;
  fromOrd: number;
  toOrd: number;
  items: LoadedItem[];
  /** A leaf's nearest summary before it in context, handed to the summarizer as the previous summary. */
  previous?: SummaryRecord | undefined;
}

/** The summary nearest before context item `ord`, if any. */
function summaryBefore(items: readonly LoadedItem[], ord: number): SummaryRecord | undefined {
  for (let i = ord - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type === "summary") return item.summary;
  }
  return undefined;
}

/**
 * The leaf pass: the oldest run of raw messages outside the fresh tail, up to `chunkTokens` (at least one
 * message), extended over the tool results that answer its last calls, with the nearest summary before
 * it as its previous summary: background for continuity (lossless-claw's previous_context), not merged in. The newest user message is never
 * compacted: it is pinned raw even when the turn after it is compacted. `startOrd` skips the runs before
 * it (the run there did not shrink the context). Null when nothing is compactable.
 */
export function planLeafPass(items: readonly LoadedItem[], freshTail: number, chunkTokens: number, startOrd = 0): PassPlan | null {
  const rawOrds: number[] = [];
  items.forEach((item, ord) => {
    if (item.type === "message") rawOrds.push(ord);
  });
  const message = (ord: number) => (items[ord] as Extract<LoadedItem, { type: "message" }>).stored;
  const tailFrom = freshTailStart(rawOrds.map((o) => message(o).message), freshTail);
  const limitOrd = tailFrom < rawOrds.length ? rawOrds[tailFrom]! : items.length;
  let pinnedOrd = -1;
  for (let i = rawOrds.length - 1; i >= 0; i--) {
    if (message(rawOrds[i]!).role === "user") {
      pinnedOrd = rawOrds[i]!;
      break;
    }
  }
  const compactable = (ord: number) => ord < limitOrd && ord !== pinnedOrd && items[ord]!.type === "message";
  const first = rawOrds.find((ord) => ord >= startOrd && compactable(ord));
  if (first === undefined) return null;
  let end = first;
  let tokens = 0;
  while (end < limitOrd && compactable(end) && (end === first || tokens + message(end).tokens <= chunkTokens)) tokens += message(end++).tokens;
  while (end < limitOrd && compactable(end) && message(end).role === "tool") end++;
  return { kind: "leaf", depth: 1, fromOrd: first, toOrd: end - 1, items: items.slice(first, end), previous: summaryBefore(items, first) };
}

/**
 * The condense pass: the leftmost run of at least `minRun` side-by-side summaries of one depth, up to
 * `fanin` of them, becomes one summary a level deeper (never deeper than `maxDepth`), looked for from
 * `startOrd`. With `session`, only that session's summaries are condensed (summaries carried over by `/new`
 * stay as they are). Null when no such run exists.
 */
export function planCondensePass(items: readonly LoadedItem[], fanin: number, minRun: number, startOrd = 0, maxDepth = Number.POSITIVE_INFINITY, session?: string): PassPlan | null {
  const condensable = (item: LoadedItem): item is Extract<LoadedItem, { type: "summary" }> =>
    item.type === "summary" && item.summary.depth < maxDepth && (session === undefined || item.summary.session === session);
  let i = startOrd;
  while (i < items.length) {
    const item = items[i]!;
    if (!condensable(item)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < items.length && j - i < fanin) {
      const next = items[j]!;
      if (!condensable(next) || next.summary.depth !== item.summary.depth) break;
      j++;
    }
    if (j - i >= minRun) return { kind: "condensed", depth: item.summary.depth + 1, fromOrd: i, toOrd: j - 1, items: items.slice(i, j) };
    i = j;
  }
  return null;
}

/** Everything a compaction run needs. */
export interface CompactionInput {
  store: LcmStoreAsync;
  session: string;
  system: readonly ChatMessage[];
  summarizer: Summarizer;
  counter: TokenCounter;
  targetTokens: number;
  freshTail: number;
  leafChunkTokens: number;
  leafTargetTokens: number;
  condensedTargetTokens: number;
  condenseFanin: number;
  /** Deepest summary a condense pass may create. */
  maxDepth: number;
  maxPasses: number;
  summaryTimeoutMs: number;
  now: () => number;
  signal?: AbortSignal | undefined;
  focusTopic?: string | undefined;
  /** Tool results over this many tokens are shown as previews (0: never). */
  externalizeAboveTokens?: number | undefined;
  /** Blocks left out of user turns before the summarizer reads them (lcm.summary_skip_tags; see skipTags.ts). */
  summarySkip?: RegExp | undefined;
  /** True while the summarizer is paused (it refused its credentials): every summary is the deterministic one. */
  summarizerPaused?: boolean | undefined;
}

/** What a compaction run did. */
export interface CompactionOutcome {
  passes: number;
  tokensBefore: number;
  tokensAfter: number;
  created: SummaryRecord[];
  /** Summaries that fell back to the deterministic rung. */
  fallbacks: number;
  /** Set when the summarizer threw or timed out during this run. */
  summarizerError?: string;
  /** Set when the summarizer refused its credentials (401/403) during this run. */
  authFailure?: string;
  /** True when the summarizer was paused for this run and not called. */
  summarizerPaused?: boolean;
  /** Summaries taken as a background preparation wrote them (`compression.prepare_at`), not asked for again. */
  preparedSummaries?: number;
}

/**
 * Loads the session's context items with their records, in order: the messages in one read, the
 * summaries side by side. With `counter`, a stored message whose count another counting produced (or
 * none that named itself) is recounted with it.
 */
export async function loadContext(store: LcmStoreAsync, session: string, counter?: TokenCounter): Promise<LoadedItem[]> {
  const refs = await store.contextItems(session);
  const countedBy = counter === undefined ? undefined : countingIdOf(counter);
  const recounted = (m: StoredMessage): StoredMessage =>
    counter === undefined || m.tokensBy === countedBy ? m : { ...m, tokens: counter.countMessages([m.message]), tokensBy: countedBy };
  const [storedMessages, summaries] = await Promise.all([
    store.getMessages(refs.filter((r) => r.type === "message").map((r) => r.id)),
    Promise.all(refs.filter((r) => r.type === "summary").map((r) => store.getSummary(r.id))),
  ]);
  const messages = new Map(storedMessages.map((m) => [m.id, recounted(m)]));
  const summaryById = new Map(summaries.filter((s) => s !== undefined).map((s) => [s.id, s]));
  return refs.map((ref): LoadedItem => {
    if (ref.type === "message") {
      const stored = messages.get(ref.id);
      if (!stored) throw new Error(`lcm: context item ${ref.id} of session '${session}' has no stored message`);
      return { type: "message", stored };
    }
    const summary = summaryById.get(ref.id);
    if (!summary) throw new Error(`lcm: context item ${ref.id} of session '${session}' has no stored summary`);
    return { type: "summary", summary };
  });
}

function refOf(item: LoadedItem): ItemRef {
  return item.type === "message" ? { type: "message", id: item.stored.id } : { type: "summary", id: item.summary.id };
}

/** Builds the summary record of a plan: sources, covered range and the ladder's text. */
async function summarizePlan(plan: PassPlan, input: CompactionInput, health: SummarizerHealth): Promise<SummaryRecord> {
  const sources = plan.items.map(refOf);
  let messages: ChatMessage[];
  let sourceText: string;
  let sourceTokens: number;
  if (plan.kind === "leaf") {
    const stored = plan.items.map((i) => (i as { stored: StoredMessage }).stored);
    messages = stored.map((s) => summarizerView(s.message, input.summarySkip));
    sourceText = stored.map((s, i) => `[${s.role.toUpperCase()} #${s.seq}]: ${searchableText(messages[i]!)}`).join("\n");
    sourceTokens = stored.reduce((n, s) => n + s.tokens, 0);
  } else {
    const children = plan.items.map((i) => (i as { summary: SummaryRecord }).summary);
    // each child is handed over as an earlier compaction summary (signed, so summarizers recognise it and merge its sections)
    messages = children.map((c) => ({ role: "user", content: `${SIGNED_COMPACTION_TAG} summary ${c.id} of messages ${c.seqStart}-${c.seqEnd}:\n${c.content}` }));
    sourceText = children.map((c) => c.content).join("\n\n");
    sourceTokens = children.reduce((n, c) => n + c.tokens, 0);
  }
  const seqs = plan.items.map((i) => (i.type === "message" ? [i.stored.seq, i.stored.seq] : [i.summary.seqStart, i.summary.seqEnd]));
  const targetTokens = plan.kind === "leaf" ? input.leafTargetTokens : input.condensedTargetTokens;
  const result = await summarizeWithLadder({
    summarizer: input.summarizer,
    counter: input.counter,
    messages,
    sourceText,
    sourceTokens,
    targetTokens,
    timeoutMs: input.summaryTimeoutMs,
    signal: input.signal,
    health,
    focusTopic: input.focusTopic,
    precedingSummary: plan.previous?.content,
  });
  const id = summaryId(plan.kind, plan.depth, sources.map((s) => s.id), result.body);
  const content = result.level === 3 ? `${result.body}\n${truncationMarker(id)}` : result.body;
  return {
    id,
    session: input.session,
    kind: plan.kind,
    depth: plan.depth,
    level: result.level,
    content,
    tokens: input.counter.count(content),
    sourceTokens,
    seqStart: seqs[0]![0]!,
    seqEnd: seqs[seqs.length - 1]![1]!,
    createdAt: input.now(),
  };
}

/**
 * The plans of one pass, best first: a condense over a full fan-in, then the leaf runs oldest first,
 * then any condense of two or more. Later runs are offered only when the earlier ones did not shrink
 * the context (an old user message left raw between summaries must not stall compaction).
 */
export function* passCandidates(
  items: readonly LoadedItem[],
  input: Pick<CompactionInput, "condenseFanin" | "freshTail" | "leafChunkTokens" | "maxDepth"> & { session?: string | undefined },
): Generator<PassPlan> {
  const { condenseFanin: fanin, maxDepth, session } = input;
  const full = planCondensePass(items, fanin, fanin, 0, maxDepth, session);
  if (full) yield full;
  for (let leaf = planLeafPass(items, input.freshTail, input.leafChunkTokens); leaf; leaf = planLeafPass(items, input.freshTail, input.leafChunkTokens, leaf.toOrd + 1)) yield leaf;
  for (let run = planCondensePass(items, fanin, 2, 0, maxDepth, session); run; run = planCondensePass(items, fanin, 2, run.toOrd + 1, maxDepth, session)) yield run;
}

/** The identity of a plan: its kind and the ids it would replace. */
function planKey(plan: PassPlan): string {
  return `${plan.kind}:${plan.items.map((i) => refOf(i).id).join(",")}`;
}

/**
 * Runs passes until at target: each pass commits the first candidate (see {@link passCandidates}) that
 * makes the context smaller; a plan that did not is not summarized again in this run.
 */
export async function runCompaction(input: CompactionInput): Promise<CompactionOutcome> {
  const health: SummarizerHealth = { failed: input.summarizerPaused === true };
  let items = await loadContext(input.store, input.session, input.counter);
  // stored messages are measured by their stored counts; only summary blocks and stubs are counted
  const storedTokens = new Map<ChatMessage, number>();
  for (const item of items) if (item.type === "message") storedTokens.set(item.stored.message, item.stored.tokens);
  const measure = (loaded: readonly LoadedItem[]) => {
    let total = 0;
    for (const m of assembleContext(input.system, loaded, { externalizeAboveTokens: input.externalizeAboveTokens })) total += storedTokens.get(m) ?? input.counter.countMessages([m]);
    return total;
  };
  let tokens = measure(items);
  const outcome: CompactionOutcome = { passes: 0, tokensBefore: tokens, tokensAfter: tokens, created: [], fallbacks: 0 };
  const rejected = new Set<string>();
  while (outcome.passes < input.maxPasses && tokens > input.targetTokens) {
    if (input.signal?.aborted) throw new CompactionAbortedError();
    let committed = false;
    for (const plan of passCandidates(items, input)) {
      const key = planKey(plan);
      if (rejected.has(key)) continue;
      const summary = await summarizePlan(plan, input, health);
      const next = [...items.slice(0, plan.fromOrd), { type: "summary" as const, summary }, ...items.slice(plan.toOrd + 1)];
      const nextTokens = measure(next);
      if (nextTokens >= tokens) {
        rejected.add(key);
        continue;
      }
      await input.store.commitSummary(summary, plan.items.map(refOf), plan.fromOrd, plan.toOrd);
      items = next;
      tokens = nextTokens;
      outcome.passes++;
      outcome.created.push(summary);
      if (summary.level === 3) outcome.fallbacks++;
      committed = true;
      break;
    }
    if (!committed) break;
  }
  outcome.tokensAfter = tokens;
  if (health.lastError !== undefined) outcome.summarizerError = health.lastError;
  if (health.authFailure !== undefined) outcome.authFailure = health.authFailure;
  if (input.summarizerPaused) outcome.summarizerPaused = true;
  return outcome;
}
