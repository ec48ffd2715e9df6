/**
 * Compaction: the pure planners (fresh-tail boundary, leaf chunk, condense run) and the bounded pass
 * loop that applies them until the assembled context is at or below its target. A pass is committed
 * only when it makes the context smaller, and at most `maxPasses` run, so it can never loop.
 */
import { alignBoundaryBackward, type ChatMessage, type Summarizer, type TokenCounter } from "./core.ts";
import { assembleContext, type LoadedItem } from "./assemble.ts";
import { searchableText, summaryId } from "./messageText.ts";
import type { ItemRef, LcmStore, StoredMessage, SummaryKind, SummaryRecord } from "./store/LcmStore.ts";
import { CompactionAbortedError, summarizeWithLadder, truncationMarker } from "./summarize.ts";

/**
 * Index in `raw` (the uncompacted messages, oldest first) where the protected tail starts: the last
 * `freshTail` messages stay raw, and the tail starts at an assistant message (so no call is split from
 * its results and a summary block before it can merge into it). Without an assistant to start at, the
 * boundary is only aligned pair-safe.
 */
export function freshTailStart(raw: readonly ChatMessage[], freshTail: number): number {
  if (raw.length === 0) return 0;
  const start = Math.max(0, raw.length - freshTail);
  for (let i = start; i >= 0; i--) if (raw[i]!.role === "assistant") return i;
  return alignBoundaryBackward([...raw], start);
}

/** A planned pass: replace context items `fromOrd..toOrd` with one summary over `sources`. */
export interface PassPlan {
  kind: SummaryKind;
  depth: number;
  fromOrd: number;
  toOrd: number;
  items: LoadedItem[];
}

/**
 * The leaf pass: the oldest run of raw messages outside the fresh tail, up to `chunkTokens` (at least one
 * message), extended over the tool results that answer its last calls. The newest user message is never
 * compacted: it is pinned raw even when the turn after it is compacted. Null when nothing is compactable.
 */
export function planLeafPass(items: readonly LoadedItem[], freshTail: number, chunkTokens: number): PassPlan | null {
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
  const first = rawOrds.find(compactable);
  if (first === undefined) return null;
  let end = first;
  let tokens = 0;
  while (end < limitOrd && compactable(end) && (end === first || tokens + message(end).tokens <= chunkTokens)) tokens += message(end++).tokens;
  while (end < limitOrd && compactable(end) && message(end).role === "tool") end++;
  return { kind: "leaf", depth: 1, fromOrd: first, toOrd: end - 1, items: items.slice(first, end) };
}

/**
 * The condense pass: the leftmost run of at least `minRun` side-by-side summaries of one depth, up to
 * `fanin` of them, becomes one summary a level deeper. Null when no such run exists.
 */
export function planCondensePass(items: readonly LoadedItem[], fanin: number, minRun: number): PassPlan | null {
  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    if (item.type !== "summary") {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < items.length && j - i < fanin) {
      const next = items[j]!;
      if (next.type !== "summary" || next.summary.depth !== item.summary.depth) break;
      j++;
    }
    if (j - i >= minRun) return { kind: "condensed", depth: item.summary.depth + 1, fromOrd: i, toOrd: j - 1, items: items.slice(i, j) };
    i = j;
  }
  return null;
}

/** Everything a compaction run needs. */
export interface CompactionInput {
  store: LcmStore;
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
  maxPasses: number;
  summaryTimeoutMs: number;
  now: () => number;
  signal?: AbortSignal | undefined;
  focusTopic?: string | undefined;
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
}

/** Loads the session's context items with their records, in order. */
export function loadContext(store: LcmStore, session: string): LoadedItem[] {
  const refs = store.contextItems(session);
  const messages = new Map(store.getMessages(refs.filter((r) => r.type === "message").map((r) => r.id)).map((m) => [m.id, m]));
  return refs.map((ref): LoadedItem => {
    if (ref.type === "message") {
      const stored = messages.get(ref.id);
      if (!stored) throw new Error(`lcm: context item ${ref.id} of session '${session}' has no stored message`);
      return { type: "message", stored };
    }
    const summary = store.getSummary(ref.id);
    if (!summary) throw new Error(`lcm: context item ${ref.id} of session '${session}' has no stored summary`);
    return { type: "summary", summary };
  });
}

function refOf(item: LoadedItem): ItemRef {
  return item.type === "message" ? { type: "message", id: item.stored.id } : { type: "summary", id: item.summary.id };
}

/** Builds the summary record of a plan: sources, covered range and the ladder's text. */
async function summarizePlan(plan: PassPlan, input: CompactionInput, health: { failed: boolean; lastError?: string }): Promise<SummaryRecord> {
  const sources = plan.items.map(refOf);
  let messages: ChatMessage[];
  let sourceText: string;
  let sourceTokens: number;
  if (plan.kind === "leaf") {
    const stored = plan.items.map((i) => (i as { stored: StoredMessage }).stored);
    messages = stored.map((s) => s.message);
    sourceText = stored.map((s) => `[${s.role.toUpperCase()} #${s.seq}]: ${searchableText(s.message)}`).join("\n");
    sourceTokens = stored.reduce((n, s) => n + s.tokens, 0);
  } else {
    const children = plan.items.map((i) => (i as { summary: SummaryRecord }).summary);
    // each child is handed over as an earlier compaction summary, so summarizers merge their sections
    messages = children.map((c) => ({ role: "user", content: `[CONTEXT COMPACTION] summary ${c.id} of messages ${c.seqStart}-${c.seqEnd}:\n${c.content}` }));
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

/** Runs passes (condense when a full fan-in is ready, else leaf, else a forced condense) until at target. */
export async function runCompaction(input: CompactionInput): Promise<CompactionOutcome> {
  const health: { failed: boolean; lastError?: string } = { failed: false };
  const measure = (items: readonly LoadedItem[]) => input.counter.countMessages(assembleContext(input.system, items));
  let items = loadContext(input.store, input.session);
  let tokens = measure(items);
  const outcome: CompactionOutcome = { passes: 0, tokensBefore: tokens, tokensAfter: tokens, created: [], fallbacks: 0 };
  while (outcome.passes < input.maxPasses && tokens > input.targetTokens) {
    if (input.signal?.aborted) throw new CompactionAbortedError();
    const plans = [
      planCondensePass(items, input.condenseFanin, input.condenseFanin),
      planLeafPass(items, input.freshTail, input.leafChunkTokens),
      planCondensePass(items, input.condenseFanin, 2),
    ].filter((p, i, all): p is PassPlan => p !== null && all.findIndex((q) => q?.fromOrd === p.fromOrd && q?.toOrd === p.toOrd) === i);
    let committed = false;
    for (const plan of plans) {
      const summary = await summarizePlan(plan, input, health);
      const next = [...items.slice(0, plan.fromOrd), { type: "summary" as const, summary }, ...items.slice(plan.toOrd + 1)];
      const nextTokens = measure(next);
      if (nextTokens >= tokens) continue;
      input.store.commitSummary(summary, plan.items.map(refOf), plan.fromOrd, plan.toOrd);
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
  return outcome;
}
