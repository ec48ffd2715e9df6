/**
 * Runs the prepared-summaries workload (preparedWorkload.ts) in worker processes on one store and checks
 * from the outside what they left: every turn covered exactly once by the active list (a turn or a
 * summary listing it), no summary applied twice, every `compact_context` request honoured by the next
 * boundary of its session, no range sent to the summarizer twice, and how long the trigger took when a
 * prepared summary was ready.
 */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionStoreAsync } from "../../packages/core/src/index.js";
import type { RecordedRequest } from "./openaiFixtureServer.js";
import { preparedSessionId, preparedTag, tagsIn, type LoggedCall, type LoggedRequest, type PreparedWorkerReport, type PreparedWorkloadOptions } from "./preparedWorkload.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../..");

/** The workload's size and store, the same for every worker. */
export type PreparedLoad = Omit<PreparedWorkloadOptions, "worker">;

/** Starts `load.workers` processes, all beginning at once; resolves with their reports. */
export function runPreparedWorkers(load: PreparedLoad): Promise<PreparedWorkerReport[]> {
  const startAt = Date.now() + 4_000;
  return Promise.all(
    Array.from(
      { length: load.workers },
      (_, worker) =>
        new Promise<PreparedWorkerReport>((done, fail) => {
          const args = ["--import", "tsx", "--conditions=@context-engine/source", join(here, "preparedWorker.ts"), JSON.stringify({ ...load, worker, startAt })];
          execFile(process.execPath, args, { cwd: repoRoot, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
            if (error) return fail(new Error(`worker ${worker} failed: ${error.message}\n${stderr}`));
            done(JSON.parse(stdout.trim().split("\n").at(-1)!) as PreparedWorkerReport);
          });
        }),
    ),
  );
}

/** What the store and the logs say after the workload. */
export interface PreparedAudit {
  /** Per session: turns the active list does not cover, and turns it covers more than once. */
  sessions: { sessionId: string; lost: string[]; repeated: string[] }[];
  /** Summaries written by more than one compaction. */
  appliedTwice: string[];
  /** Accepted requests the next boundary of their session did not honour (with its focus), or honoured more than once. */
  notHonoured: LoggedRequest[];
  honouredTwice: string[];
  /** Ranges (the turns a prompt gave) the summarizer was sent more than once for the same focus. */
  rangesSentTwice: number;
  calls: LoggedCall[];
  requests: LoggedRequest[];
  summarizerCalls: number;
}

/** The active list of every session, expanded through its summary, against every turn appended. */
async function coverage(store: SessionStoreAsync, load: PreparedLoad): Promise<PreparedAudit["sessions"]> {
  const out: PreparedAudit["sessions"] = [];
  for (let s = 0; s < load.sessions; s++) {
    const sessionId = preparedSessionId(s);
    const seen = new Map<string, number>();
    for (const message of await store.activeMessages(sessionId)) {
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      if (message.role !== "user" && !text.includes("summary #")) continue;
      for (const tag of tagsIn(text)) seen.set(tag, (seen.get(tag) ?? 0) + 1);
    }
    const expected = Array.from({ length: load.workers }, (_, w) => Array.from({ length: load.rounds }, (_, r) => preparedTag(w, s, r))).flat();
    out.push({ sessionId, lost: expected.filter((tag) => !seen.has(tag)), repeated: [...seen].filter(([, n]) => n > 1).map(([tag]) => tag) });
  }
  return out;
}

/**
 * Accepted requests not honoured within one turn: no call compacted with their focus, or a boundary of
 * their session missed them — a call that started after the request was stored and ended before the
 * honouring call began, not while another call held the request (one that could not compact gives it back
 * when it ends: another worker held the session's compaction, or finished first).
 */
function unhonoured(requests: readonly LoggedRequest[], calls: readonly LoggedCall[]): LoggedRequest[] {
  const gaveBack = (call: LoggedCall) => /another worker is compacting|changed while it was being compacted/.test(call.reason ?? "");
  return requests.filter((request) => {
    if (!request.accepted) return false;
    const session = calls.filter((c) => c.session === request.session);
    const honouring = session.find((c) => c.focus === request.focus);
    if (honouring === undefined) return true;
    const held = session.filter(gaveBack);
    const missed = session.filter(
      (c) => c !== honouring && !gaveBack(c) && c.at > request.at && c.at + c.ms <= honouring.at && !held.some((h) => c.at >= h.at && c.at <= h.at + h.ms),
    );
    return missed.length > 0;
  });
}

/** Audits what the workers left in `store` and logged, and what the summarizer received. */
export async function auditPrepared(store: SessionStoreAsync, load: PreparedLoad, reports: readonly PreparedWorkerReport[], summarizerRequests: readonly RecordedRequest[]): Promise<PreparedAudit> {
  const calls = reports.flatMap((r) => r.calls);
  const requests = reports.flatMap((r) => r.requests);
  const count = (values: readonly string[]) => [...values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())].filter(([, n]) => n > 1).map(([v]) => v);
  // a range and the focus it was summarized for: an agent's request asks the range again with its focus, by design
  const ranges = summarizerRequests.map((request) => {
    const prompt = String(request.body?.messages?.at(-1)?.content ?? "");
    const focus = /focus on w\d+ s\d+ r\d+/.exec(prompt)?.[0] ?? "";
    return `${focus}\n${prompt.slice(Math.max(prompt.indexOf("TURNS TO SUMMARIZE:"), prompt.indexOf("NEW TURNS:")))}`;
  });
  return {
    sessions: await coverage(store, load),
    appliedTwice: count(calls.flatMap((c) => (c.outcome === "compressed" && c.summaryId !== undefined ? [c.summaryId] : []))),
    notHonoured: unhonoured(requests, calls),
    honouredTwice: count(calls.flatMap((c) => (c.focus === undefined ? [] : [c.focus]))),
    rangesSentTwice: count(ranges).length,
    calls,
    requests,
    summarizerCalls: summarizerRequests.length,
  };
}

/** The `p`-th percentile (0–100) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The workload's figures in one line: compactions and how their summaries came, requests, summarizer calls, the trigger's time with a ready summary. */
export function preparedFigures(audit: PreparedAudit, load: PreparedLoad): string {
  const compacted = audit.calls.filter((c) => c.outcome === "compressed");
  const ready = compacted.filter((c) => c.preparation?.outcome === "applied");
  const fromStore = ready.filter((c) => c.preparation?.fromStore === true);
  const awaited = compacted.filter((c) => c.preparation?.outcome === "awaited" || c.preparation?.outcome === "updated");
  // p99 by nearest rank: below 100 calls it is the slowest one, so the slowest is shown beside it
  const ms = (values: number[]) => (values.length === 0 ? "—" : `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)} ms (slowest ${percentile(values, 100).toFixed(1)} ms)`);
  const blocking = compacted.filter((c) => c.preparation === undefined || c.preparation.outcome === "stale" || c.preparation.outcome === "failed");
  return [
    `${load.workers} workers × ${load.sessions} sessions × ${load.rounds} turns each (${load.store.kind}): ${compacted.length} compactions`,
    `  prepared summary ready at the trigger: ${ready.length} (${fromStore.length} prepared by another worker), trigger call p50 / p99 ${ms(ready.map((c) => c.ms))}`,
    `  prepared summary still being written (awaited or updated): ${awaited.length}, p50 / p99 ${ms(awaited.map((c) => c.ms))}`,
    `  summarized at the trigger (no preparation, or a request's focus): ${blocking.length}, p50 / p99 ${ms(blocking.map((c) => c.ms))}`,
    `  compact_context requests accepted ${audit.requests.filter((r) => r.accepted).length}, not honoured at the next boundary ${audit.notHonoured.length}, honoured twice ${audit.honouredTwice.length}`,
    `  summarizer calls ${audit.summarizerCalls}, ranges sent twice ${audit.rangesSentTwice}, summaries applied twice ${audit.appliedTwice.length}`,
    `  turns lost ${audit.sessions.reduce((n, s) => n + s.lost.length, 0)}, repeated ${audit.sessions.reduce((n, s) => n + s.repeated.length, 0)}`,
  ].join("\n");
}
