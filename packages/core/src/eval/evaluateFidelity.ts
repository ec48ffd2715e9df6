/**
 * The fidelity eval: a transcript replayed through an engine (the replay of replayConversation, with
 * its prices and prefix-cache model), and at each compaction the facts of the transcript messages the
 * engine removed checked against what the engine wrote into the context (its summaries, notes and
 * placeholders). Messages the engine kept verbatim, merged into its summary message, or rewrote in
 * place (a cleared tool output, truncated call arguments) are not removed. It also follows the first compaction's facts through the later compactions, and the
 * identifiers of each removed range that the kept tail still refers to.
 */
import type { ChatMessage } from "../messages/schema.js";
import { messageText } from "../messages/text.js";
import { replayConversation } from "../replay/replayConversation.js";
import type { CompactionLayer, ReplayCompaction, ReplayOptions, ReplayReport } from "../replay/types.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import { messageCounter, type TokenCounter } from "../tokens/types.js";
import type { ContextEngine } from "../engine/ContextEngine.js";
import { extractFacts, type Fact } from "./facts.js";
import { callIdsOf, TranscriptIndex } from "./transcriptIndex.js";
import { addSurvival, emptySurvival, factSurvives, survivalByKind, survivalText, type KindSurvival, type SurvivalByKind } from "./survival.js";

/** Lost facts listed per compaction in a report (the counts cover all of them). */
export const MAX_LOST_LISTED = 40;
/** The first chunk's retention is quoted after this many compactions (or after the last, when fewer ran). */
export const RETENTION_AT_COMPACTIONS = 5;

/** What one compaction kept of what it removed. */
export interface CompactionFidelity {
  /** 1 for the first compaction of the replay. */
  number: number;
  /** The request it ran before, and the layer that ran it. */
  request: number;
  layer: CompactionLayer;
  /** Transcript messages it took out of the context. */
  removedMessages: number;
  /** Tokens of the messages it created (its summary and notes; rewritten copies of transcript messages and kept text merged into them left out). */
  summaryTokens: number;
  /** Per kind: facts of the removed messages, and how many appear in what the engine wrote. */
  survival: SurvivalByKind;
  /**
   * Per kind: facts of the removed messages, and how many appear in what the summary model was shown for
   * this compaction (the prompts an LLM summarizer sends, {@link PromptSource}); undefined when no prompts were recorded.
   */
  promptRecall?: SurvivalByKind | undefined;
  /** Up to {@link MAX_LOST_LISTED} facts the summary model was not shown (identifiers aside), with `promptRecall`. */
  promptLost?: Fact[] | undefined;
  /** Identifiers of the removed messages that the kept later messages mention, and how many the engine's text keeps. */
  references: KindSurvival;
  /** Share of the first chunk's facts (identifiers aside) still in the engine's text after this compaction; null before the first chunk. */
  firstChunkRetained: number | null;
  /** Up to {@link MAX_LOST_LISTED} facts that did not survive. */
  lost: Fact[];
  /** Paths and identifiers the engine's text states, and those of them the context it compacted never had. */
  invented: InventedFacts;
}

/** Facts an engine stated that its input did not hold: counted by the eval's own detectors. */
export interface InventedFacts {
  /** Paths and identifiers found in what the engine wrote. */
  stated: number;
  /** How many of them appear nowhere in the messages it compacted (tool-call arguments included). */
  invented: number;
  /** Up to {@link MAX_LOST_LISTED} of them, as written. */
  examples: string[];
}

/** The fidelity of one engine on one transcript. */
export interface FidelityReport {
  engine: string;
  transcriptMessages: number;
  compactions: CompactionFidelity[];
  /** Survival per kind over every compaction. */
  survival: SurvivalByKind;
  /** Prompt recall per kind over every compaction, when the prompts were recorded ({@link FidelityOptions.prompts}). */
  promptRecall?: SurvivalByKind | undefined;
  references: KindSurvival;
  /**
   * The first chunk: the facts (identifiers aside) of the first compaction that removed any, which
   * compaction that was (1-based; 0 when none did), and the share of them retained after it and after
   * each later compaction (index 0: right after it); of its asks, how many are retained after each, and
   * the share of its other facts.
   */
  firstChunk: { facts: number; fromCompaction: number; retained: number[]; firstAsk: FirstAsk | undefined; asks: FirstChunkAsks };
  summaryTokens: { total: number; mean: number; max: number };
  /** Invented facts over every compaction. */
  invented: { stated: number; invented: number };
  /**
   * Requests that sent more than the window less the output reserve (the replay's `requestLimitTokens`):
   * the API would reject each, or leave the answer no room, so each counts as a failure.
   */
  overWindow: OverWindow;
  /** The replay's own report: requests, cost, cache reads. */
  replay: ReplayReport;
}

/** The earliest user ask a compaction removed, and whether the engine's text still held it after that compaction and each later one. */
export interface FirstAsk {
  text: string;
  /** The compaction that removed it (1-based). */
  fromCompaction: number;
  /** Index 0: right after that compaction. */
  retained: boolean[];
}

/** The first chunk's asks and its other facts over the compactions (index 0: right after the first chunk's). */
export interface FirstChunkAsks {
  /** The first chunk's asks. */
  total: number;
  /** How many of them the engine's text holds after each compaction. */
  retained: number[];
  /** Share of the first chunk's other facts (paths, errors, commands, reads) retained after each compaction. */
  othersRetained: number[];
}

/** Requests of a replay that exceeded the window less the output reserve (failures: the API rejects them, or the answer has no room). */
export interface OverWindow {
  /** How many requests sent more tokens than {@link limitTokens}, of how many. */
  failed: number;
  requests: number;
  /** The first such request (0-based), or null. */
  firstRequest: number | null;
  /** The largest request's prompt tokens. */
  peakTokens: number;
  /** The line compared against: the window less the output reserve. */
  limitTokens: number;
  /** The window itself. */
  contextLength: number;
}

/** The requests of `replay` that sent more than its window less the output reserve (`requestLimitTokens`). */
export function overWindow(replay: Pick<ReplayReport, "requests" | "contextLength" | "requestLimitTokens">): OverWindow {
  const limitTokens = replay.requestLimitTokens;
  const over = replay.requests.filter((r) => r.promptTokens > limitTokens);
  return {
    failed: over.length,
    requests: replay.requests.length,
    firstRequest: over[0]?.index ?? null,
    peakTokens: replay.requests.reduce((max, r) => Math.max(max, r.promptTokens), 0),
    limitTokens,
    contextLength: replay.contextLength,
  };
}

/** The share of the first chunk retained after `RETENTION_AT_COMPACTIONS` compactions (or after the last), and after how many. */
export function firstChunkRetention(report: Pick<FidelityReport, "firstChunk">): { after: number; share: number } | undefined {
  const curve = report.firstChunk.retained;
  if (curve.length === 0) return undefined;
  const after = Math.min(RETENTION_AT_COMPACTIONS, curve.length);
  return { after, share: curve[after - 1]! };
}

/**
 * Where the eval reads what a summary model was shown: the prompts an LLM summarizer sends, per summary
 * written, oldest first (`MeteredSummarizer` with `keepPrompts`, from `/lab`).
 */
export interface PromptSource {
  readonly prompts: readonly (readonly string[])[];
}

/** Options of {@link evaluateFidelity}: the replay's, and where the summary prompts are recorded. */
export interface FidelityOptions extends Omit<ReplayOptions, "onCompaction"> {
  /**
   * The engine's summarizer, metered with its prompts kept: each compaction's removed facts are then
   * also checked against the prompts written since the compaction before (`promptRecall`).
   */
  prompts?: PromptSource | undefined;
}

/** Measures compactions of one transcript one after another, following the first chunk's facts. */
function compactionMeter(transcript: readonly ChatMessage[], counter: TokenCounter, prompts?: PromptSource) {
  let promptsSeen = 0;
  const index = new TranscriptIndex(transcript);
  const countOne = messageCounter(counter);
  /** Tokens a created message adds: its text without the transcript texts it carries (none for a plain rewrite). */
  const addedTokens = (message: ChatMessage): number => {
    const { added, carried, extendsRewrite } = index.split(message);
    if (added.trim() === "" || (carried.length === 0 && !extendsRewrite && index.isRewrite(message))) return 0;
    // a whole engine-made message counts with its tool calls; a kept one the engine wrote into, only what it wrote
    return added.length === messageText(message).length && !extendsRewrite ? countOne(message) : counter.count(added);
  };
  const compactions: CompactionFidelity[] = [];
  let firstFacts: Fact[] | undefined;
  let firstFrom = 0;
  let firstAsk: { fact: Fact; from: number } | undefined;
  const askRetained: boolean[] = [];
  const firstAsks: FirstChunkAsks = { total: 0, retained: [], othersRetained: [] };

  const onCompaction = ({ request, layer, before, after }: ReplayCompaction): void => {
    const kept = new Set(after.map((m) => index.print(m)));
    const present = new Set(before.map((m) => index.print(m)));
    const engineMade = after.filter((m) => index.indexOf(m) === undefined);
    const parts = engineMade.map((m) => index.split(m));
    const carried = new Set(parts.flatMap((p) => p.carried));
    // Messages rewritten in place (a cleared tool output, truncated call arguments) are kept, not removed.
    const rewritten = new Set(engineMade.filter((m) => index.isRewrite(m)).flatMap(callIdsOf));
    const removed: Array<{ message: ChatMessage; at: number }> = [];
    for (const message of before) {
      const at = index.indexOf(message);
      if (at === undefined || kept.has(index.print(message)) || carried.has(messageText(message))) continue;
      const ids = callIdsOf(message);
      if (ids.length > 0 && ids.every((id) => rewritten.has(id))) continue;
      removed.push({ message, at });
    }
    const created = engineMade.filter((m) => !present.has(index.print(m)));
    const written = survivalText(parts.map((p) => p.added).join("\n\n"));

    const facts = extractFacts(removed.map((r) => r.message));
    const invented = inventedFacts(parts.map((p) => p.added), before);
    const lost: Fact[] = [];
    const survival = survivalByKind(facts, written, lost);
    let promptRecall: SurvivalByKind | undefined;
    const promptLost: Fact[] = [];
    if (prompts !== undefined) {
      const shown = prompts.prompts.slice(promptsSeen).flat();
      promptsSeen = prompts.prompts.length;
      promptRecall = survivalByKind(facts, survivalText(shown.join("\n\n")), promptLost);
    }

    const lastRemoved = removed.reduce((max, r) => Math.max(max, r.at), -1);
    const laterText = after.filter((m) => (index.indexOf(m) ?? -1) > lastRemoved).map(messageText).join("\n");
    const later = survivalText(laterText);
    const referenced = facts.filter((f) => f.kind === "identifier" && laterText.includes(f.key) && factSurvives(f, later));
    const references = { total: referenced.length, kept: referenced.filter((f) => factSurvives(f, written)).length };

    const checked = facts.filter((f) => f.kind !== "identifier");
    if (firstFacts === undefined && checked.length > 0) {
      firstFacts = checked;
      firstFrom = compactions.length + 1;
    }
    const retained = firstFacts === undefined ? null : firstFacts.filter((f) => factSurvives(f, written)).length / firstFacts.length;
    if (firstFacts !== undefined) {
      const asks = firstFacts.filter((f) => f.kind === "ask");
      const others = firstFacts.filter((f) => f.kind !== "ask");
      firstAsks.retained.push(asks.filter((f) => factSurvives(f, written)).length);
      firstAsks.othersRetained.push(others.length === 0 ? 1 : others.filter((f) => factSurvives(f, written)).length / others.length);
      firstAsks.total = asks.length;
    }
    const ask = facts.find((f) => f.kind === "ask");
    if (firstAsk === undefined && ask !== undefined) firstAsk = { fact: ask, from: compactions.length + 1 };
    if (firstAsk !== undefined) askRetained.push(factSurvives(firstAsk.fact, written));

    compactions.push({
      number: compactions.length + 1,
      request,
      layer,
      removedMessages: removed.length,
      summaryTokens: created.reduce((sum, m) => sum + addedTokens(m), 0),
      survival,
      ...(promptRecall !== undefined ? { promptRecall, promptLost: promptLost.filter((f) => f.kind !== "identifier").slice(0, MAX_LOST_LISTED) } : {}),
      references,
      firstChunkRetained: retained,
      lost: lost.filter((f) => f.kind !== "identifier").slice(0, MAX_LOST_LISTED),
      invented,
    });
  };

  const firstChunk = (): FidelityReport["firstChunk"] => ({
    facts: firstFacts?.length ?? 0,
    fromCompaction: firstFrom,
    retained: compactions.flatMap((c) => (c.firstChunkRetained === null ? [] : [c.firstChunkRetained])),
    firstAsk: firstAsk === undefined ? undefined : { text: firstAsk.fact.text, fromCompaction: firstAsk.from, retained: [...askRetained] },
    asks: { total: firstAsks.total, retained: [...firstAsks.retained], othersRetained: [...firstAsks.othersRetained] },
  });
  return { onCompaction, compactions, firstChunk };
}

/** Replays `transcript` through `options.engine` and measures what each compaction kept. The engine is used. */
export async function evaluateFidelity(transcript: readonly ChatMessage[], options: FidelityOptions): Promise<FidelityReport> {
  const { prompts, ...replayOptions } = options;
  const { onCompaction, compactions, firstChunk } = compactionMeter(transcript, options.tokenCounter ?? defaultTokenCounter(), prompts);
  const replay = await replayConversation(transcript, { ...replayOptions, onCompaction });
  const survival = compactions.reduce((acc, c) => addSurvival(acc, c.survival), emptySurvival());
  // an engine that never called its summarizer (a sliding window) showed a summary model nothing: no recall to report
  const prompted = prompts !== undefined && prompts.prompts.length > 0;
  if (!prompted) {
    for (const c of compactions) {
      delete c.promptRecall;
      delete c.promptLost;
    }
  }
  const promptRecall = prompted ? compactions.reduce((acc, c) => addSurvival(acc, c.promptRecall ?? emptySurvival()), emptySurvival()) : undefined;
  const references = compactions.reduce((acc, c) => ({ total: acc.total + c.references.total, kept: acc.kept + c.references.kept }), { total: 0, kept: 0 });
  const tokens = compactions.map((c) => c.summaryTokens);
  const total = tokens.reduce((s, t) => s + t, 0);
  return {
    engine: replay.engine,
    transcriptMessages: transcript.length,
    compactions,
    survival,
    ...(promptRecall !== undefined ? { promptRecall } : {}),
    references,
    firstChunk: firstChunk(),
    summaryTokens: { total, mean: tokens.length === 0 ? 0 : total / tokens.length, max: tokens.length === 0 ? 0 : Math.max(...tokens) },
    invented: compactions.reduce((acc, c) => ({ stated: acc.stated + c.invented.stated, invented: acc.invented + c.invented.invented }), { stated: 0, invented: 0 }),
    overWindow: overWindow(replay),
    replay,
  };
}

/**
 * The paths and identifiers `written` states (by the eval's detectors) that `source` — the context the
 * engine compacted, tool-call arguments included — never holds: what a summary invented.
 */
export function inventedFacts(written: readonly string[], source: readonly ChatMessage[]): InventedFacts {
  const stated = extractFacts(written.map((content) => ({ role: "assistant" as const, content }))).filter((f) => f.kind === "path" || f.kind === "identifier");
  const sourceText = survivalText(source.map((m) => [messageText(m), ...(m.tool_calls ?? []).map((c) => c.function.arguments)].join("\n")).join("\n"));
  const invented = stated.filter((f) => !factSurvives(f, sourceText));
  return { stated: stated.length, invented: invented.length, examples: invented.slice(0, MAX_LOST_LISTED).map((f) => f.text) };
}

/**
 * One compaction forced on the whole of `transcript` (`compress(…, {force: true})`, as `/compress` runs
 * it), measured like a compaction of the replay: what the engine kept of the facts it removed. For
 * transcripts too short to compact in the window on their own. Undefined when the engine removed nothing.
 * With `prompts` (the engine's summarizer, metered with its prompts kept), also what the summary model was shown.
 * The engine is used.
 */
export async function evaluateForcedCompaction(transcript: readonly ChatMessage[], engine: ContextEngine, tokenCounter?: TokenCounter, prompts?: PromptSource): Promise<CompactionFidelity | undefined> {
  const { onCompaction, compactions } = compactionMeter(transcript, tokenCounter ?? defaultTokenCounter(), prompts);
  const after = await engine.compress([...transcript], { force: true });
  onCompaction({ request: 0, layer: "agent", before: transcript, after });
  const [compaction] = compactions;
  return compaction === undefined || compaction.removedMessages === 0 ? undefined : compaction;
}
