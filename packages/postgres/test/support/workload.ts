/**
 * The many-workers workload of the multi-process test and of `pnpm bench postgres`: each worker appends
 * tagged turns to every shared session and compacts each of them now and then, all through
 * `CompactionSessionAsync` on one PostgreSQL database, as gateway workers sharing sessions do.
 * {@link TagFolder} folds turns into a summary that lists the tags it covers, so the final active list
 * tells exactly which turns survive: each appended turn must be in it exactly once.
 */
import { ContextEngine, type ChatMessage } from "@context-engine/core";
import { CompactionSessionAsync, type CompactionResult } from "@context-engine/core/session";
import { openPostgresStore } from "../../src/index.js";

const SUMMARY = "[CONTEXT COMPACTION] tags: ";

/** The tags a message covers: a summary's list, or the turn's own tag. */
export function tagsOf(message: ChatMessage): string[] {
  const text = String(message.content);
  return text.startsWith(SUMMARY) ? (JSON.parse(text.slice(SUMMARY.length)) as string[]) : [text];
}

/** Keeps the last two messages and folds the rest into one summary listing every tag they cover. */
export class TagFolder extends ContextEngine {
  readonly name = "tag-folder";
  shouldCompress(): boolean {
    return true;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    // a summarizer takes a while: other workers append (and compact) meanwhile
    await new Promise((tick) => setTimeout(tick, 2));
    if (messages.length <= 3) return messages;
    const folded = messages.slice(0, -2).flatMap(tagsOf);
    return [{ role: "user", content: `${SUMMARY}${JSON.stringify(folded)}` }, ...messages.slice(-2)];
  }
}

/** What one worker runs. */
export interface WorkloadOptions {
  url: string;
  worker: number;
  sessions: number;
  rounds: number;
  /** Compacts each session after every this many rounds. */
  compactEvery: number;
}

/** What one worker did. */
export interface WorkerReport {
  worker: number;
  appended: number;
  compacted: number;
  /** Compactions refused because another worker's compaction (of the same turns) came first. */
  conflicts: number;
  /** Compactions left to the worker that was compacting the session already (its lease). */
  leftToOthers: number;
  ms: number;
  failures: string[];
}

/** The tag of worker `w`'s turn in round `r` of session `s`. */
export const turnTag = (w: number, s: number, r: number) => `w${w} s${s} r${r}`;

/** The id of shared session `s`. */
export const sharedSessionId = (s: number) => `shared-${s}`;

/** Runs one worker's share of the workload. */
export async function runWorkload(options: WorkloadOptions): Promise<WorkerReport> {
  const store = await openPostgresStore({ connectionString: options.url, maxConnections: 4 });
  const engine = new TagFolder();
  const report: WorkerReport = { worker: options.worker, appended: 0, compacted: 0, conflicts: 0, leftToOthers: 0, ms: 0, failures: [] };
  const started = performance.now();
  try {
    const sessions = await Promise.all(
      Array.from({ length: options.sessions }, (_, s) => CompactionSessionAsync.open({ engine, store, sessionId: sharedSessionId(s), platform: "gateway" })),
    );
    for (let r = 0; r < options.rounds; r++) {
      await Promise.all(
        sessions.map(async (session, s) => {
          try {
            await session.append([{ role: "user", content: turnTag(options.worker, s, r) }]);
            report.appended++;
            if ((r + 1) % options.compactEvery !== 0) return;
            const result: CompactionResult = await session.maybeCompress({ force: true });
            if (result.outcome === "compressed") report.compacted++;
            else if (/changed while it was being compacted/.test(result.reason ?? "")) report.conflicts++;
            else if (/another worker is compacting/.test(result.reason ?? "")) report.leftToOthers++;
          } catch (error) {
            report.failures.push(`${sharedSessionId(s)} round ${r}: ${(error as Error).message}`);
          }
        }),
      );
    }
  } finally {
    report.ms = performance.now() - started;
    await store.close();
  }
  return report;
}
