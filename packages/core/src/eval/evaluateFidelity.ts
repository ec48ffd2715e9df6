/**
 * The fidelity eval: a transcript replayed through an engine (the replay of replayConversation, with
 * its prices and prefix-cache model), and at each compaction the facts of the transcript messages the
 * engine removed checked against what the engine wrote into the context (its summaries, notes and
 * placeholders). It also follows the first compaction's facts through the later compactions, and the
 * identifiers of each removed range that the kept tail still refers to.
 */
import type { ChatMessage } from "../messages/schema.js";
import { canonicalJson } from "../messages/canonicalJson.js";
import { messageText } from "../messages/text.js";
import { replayConversation } from "../replay/replayConversation.js";
import type { CompactionLayer, ReplayCompaction, ReplayOptions, ReplayReport } from "../replay/types.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import { messageCounter } from "../tokens/types.js";
import { extractFacts, type Fact } from "./facts.js";
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
  /** Tokens of the messages it created (the summary and anything else new). */
  summaryTokens: number;
  /** Per kind: facts of the removed messages, and how many appear in what the engine wrote. */
  survival: SurvivalByKind;
  /** Identifiers of the removed messages that the kept later messages mention, and how many the engine's text keeps. */
  references: KindSurvival;
  /** Share of the first compaction's facts (identifiers aside) still in the engine's text after this compaction. */
  firstChunkRetained: number;
  /** Up to {@link MAX_LOST_LISTED} facts that did not survive. */
  lost: Fact[];
}

/** The fidelity of one engine on one transcript. */
export interface FidelityReport {
  engine: string;
  transcriptMessages: number;
  compactions: CompactionFidelity[];
  /** Survival per kind over every compaction. */
  survival: SurvivalByKind;
  references: KindSurvival;
  /** Facts of the first compaction (identifiers aside) and the share retained after each compaction (index 0: after the first). */
  firstChunk: { facts: number; retained: number[] };
  summaryTokens: { total: number; mean: number; max: number };
  /** The replay's own report: requests, cost, cache reads. */
  replay: ReplayReport;
}

/** The share of the first chunk retained after `RETENTION_AT_COMPACTIONS` compactions (or after the last), and after how many. */
export function firstChunkRetention(report: Pick<FidelityReport, "firstChunk">): { after: number; share: number } | undefined {
  const curve = report.firstChunk.retained;
  if (curve.length === 0) return undefined;
  const after = Math.min(RETENTION_AT_COMPACTIONS, curve.length);
  return { after, share: curve[after - 1]! };
}

/** A message's identity for matching engine output against the transcript (engines may copy messages). */
function fingerprint(message: ChatMessage): string {
  return canonicalJson({ role: message.role, content: message.content, tool_calls: message.tool_calls, tool_call_id: message.tool_call_id });
}

/** Tells transcript messages from engine-made ones, matching by identity first and content second. */
class TranscriptIndex {
  private readonly byObject = new Map<ChatMessage, number>();
  private readonly byPrint = new Map<string, number>();
  private readonly prints = new WeakMap<ChatMessage, string>();
  private readonly systemText: string;

  constructor(transcript: readonly ChatMessage[]) {
    transcript.forEach((message, index) => {
      this.byObject.set(message, index);
      const print = this.print(message);
      if (!this.byPrint.has(print)) this.byPrint.set(print, index);
    });
    const system = transcript.find((m) => m.role === "system");
    this.systemText = system ? messageText(system) : "";
  }

  print(message: ChatMessage): string {
    let print = this.prints.get(message);
    if (print === undefined) this.prints.set(message, (print = fingerprint(message)));
    return print;
  }

  /** The transcript index of `message`, or undefined when the engine made it. */
  indexOf(message: ChatMessage): number | undefined {
    return this.byObject.get(message) ?? this.byPrint.get(this.print(message));
  }

  /** The text an engine-made message adds (a system prompt with a note appended counts only for the note). */
  addedText(message: ChatMessage): string {
    const text = messageText(message);
    return message.role === "system" && this.systemText !== "" && text.startsWith(this.systemText) ? text.slice(this.systemText.length) : text;
  }
}

/** Replays `transcript` through `options.engine` and measures what each compaction kept. The engine is used. */
export async function evaluateFidelity(transcript: readonly ChatMessage[], options: Omit<ReplayOptions, "onCompaction">): Promise<FidelityReport> {
  const index = new TranscriptIndex(transcript);
  const counter = options.tokenCounter ?? defaultTokenCounter();
  const countOne = messageCounter(counter);
  /** Tokens a created message adds: all of it, or only the note appended to the system prompt. */
  const addedTokens = (message: ChatMessage): number => {
    const added = index.addedText(message);
    return added.length === messageText(message).length ? countOne(message) : counter.count(added);
  };
  const compactions: CompactionFidelity[] = [];
  let firstFacts: Fact[] | undefined;

  const onCompaction = ({ request, layer, before, after }: ReplayCompaction): void => {
    const kept = new Set(after.map((m) => index.print(m)));
    const present = new Set(before.map((m) => index.print(m)));
    const removed: Array<{ message: ChatMessage; at: number }> = [];
    for (const message of before) {
      const at = index.indexOf(message);
      if (at !== undefined && !kept.has(index.print(message))) removed.push({ message, at });
    }
    const engineMade = after.filter((m) => index.indexOf(m) === undefined);
    const created = engineMade.filter((m) => !present.has(index.print(m)));
    const written = survivalText(engineMade.map((m) => index.addedText(m)).join("\n\n"));

    const facts = extractFacts(removed.map((r) => r.message));
    const lost: Fact[] = [];
    const survival = survivalByKind(facts, written, lost);

    const lastRemoved = removed.reduce((max, r) => Math.max(max, r.at), -1);
    const laterText = after.filter((m) => (index.indexOf(m) ?? -1) > lastRemoved).map(messageText).join("\n");
    const later = survivalText(laterText);
    const referenced = facts.filter((f) => f.kind === "identifier" && laterText.includes(f.key) && factSurvives(f, later));
    const references = { total: referenced.length, kept: referenced.filter((f) => factSurvives(f, written)).length };

    if (firstFacts === undefined) firstFacts = facts.filter((f) => f.kind !== "identifier");
    const retained = firstFacts.length === 0 ? 1 : firstFacts.filter((f) => factSurvives(f, written)).length / firstFacts.length;

    compactions.push({
      number: compactions.length + 1,
      request,
      layer,
      removedMessages: removed.length,
      summaryTokens: created.reduce((sum, m) => sum + addedTokens(m), 0),
      survival,
      references,
      firstChunkRetained: retained,
      lost: lost.filter((f) => f.kind !== "identifier").slice(0, MAX_LOST_LISTED),
    });
  };

  const replay = await replayConversation(transcript, { ...options, onCompaction });
  const survival = compactions.reduce((acc, c) => addSurvival(acc, c.survival), emptySurvival());
  const references = compactions.reduce((acc, c) => ({ total: acc.total + c.references.total, kept: acc.kept + c.references.kept }), { total: 0, kept: 0 });
  const tokens = compactions.map((c) => c.summaryTokens);
  const total = tokens.reduce((s, t) => s + t, 0);
  return {
    engine: replay.engine,
    transcriptMessages: transcript.length,
    compactions,
    survival,
    references,
    firstChunk: { facts: firstFacts?.length ?? 0, retained: compactions.map((c) => c.firstChunkRetained) },
    summaryTokens: { total, mean: tokens.length === 0 ? 0 : total / tokens.length, max: tokens.length === 0 ? 0 : Math.max(...tokens) },
    replay,
  };
}
