/** Runs the many-workers workload in child processes against one database and checks what it left. */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPostgresStore } from "../../src/index.js";
import { sharedSessionId, tagsOf, turnTag, type WorkerReport, type WorkloadOptions } from "./workload.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../../..");

/** Starts `workers` processes on `url`, all beginning at once; resolves with their reports. */
export function runWorkerProcesses(url: string, workers: number, load: Omit<WorkloadOptions, "url" | "worker">): Promise<WorkerReport[]> {
  const startAt = Date.now() + 4_000;
  return Promise.all(
    Array.from(
      { length: workers },
      (_, worker) =>
        new Promise<WorkerReport>((done, fail) => {
          const args = ["--import", "tsx", "--conditions=@context-engine/source", join(here, "sessionWorker.ts"), JSON.stringify({ ...load, url, worker, startAt })];
          execFile(process.execPath, args, { cwd: repoRoot, timeout: 300_000 }, (error, stdout, stderr) => {
            if (error) return fail(new Error(`worker ${worker} failed: ${error.message}\n${stderr}`));
            done(JSON.parse(stdout.trim().split("\n").at(-1)!) as WorkerReport);
          });
        }),
    ),
  );
}

/** What the database holds after the workload, per session. */
export interface SessionAudit {
  sessionId: string;
  /** Appended turns missing from the active list (folded or not). */
  lost: string[];
  /** Turns the active list covers more than once (appended twice, or compacted twice). */
  duplicated: string[];
  /** Turns covered that nobody appended. */
  unknown: string[];
  /** True when the seqs are 1..last without a gap or a repeat. */
  seqsContiguous: boolean;
  compactions: number;
}

/** Audits every shared session: the active list, expanded through the summaries, must cover each appended turn exactly once. */
export async function auditSessions(url: string, workers: number, load: Omit<WorkloadOptions, "url" | "worker">): Promise<SessionAudit[]> {
  const store = await openPostgresStore({ connectionString: url });
  try {
    const audits: SessionAudit[] = [];
    for (let s = 0; s < load.sessions; s++) {
      const sessionId = sharedSessionId(s);
      const expected = new Set(Array.from({ length: workers }, (_, w) => Array.from({ length: load.rounds }, (_, r) => turnTag(w, s, r))).flat());
      const seen = new Map<string, number>();
      for (const message of await store.activeMessages(sessionId)) for (const tag of tagsOf(message)) seen.set(tag, (seen.get(tag) ?? 0) + 1);
      const [overview] = await store.listSessions({ ids: [sessionId] });
      const seqs = (await store.messagesBySeq(sessionId, 1, overview!.lastSeq)).map((m) => m.seq);
      audits.push({
        sessionId,
        lost: [...expected].filter((tag) => !seen.has(tag)),
        duplicated: [...seen].filter(([, n]) => n > 1).map(([tag]) => tag),
        unknown: [...seen.keys()].filter((tag) => !expected.has(tag)),
        seqsContiguous: seqs.length === overview!.lastSeq && seqs.every((seq, i) => seq === i + 1),
        compactions: (await store.compactions(sessionId)).length,
      });
    }
    return audits;
  } finally {
    await store.close();
  }
}
