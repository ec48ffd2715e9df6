/** The assertions the prepared-summaries workload must pass on every store (preparedWorkers.ts). */
import { expect } from "vitest";
import type { PreparedAudit } from "./preparedWorkers.js";
import type { PreparedWorkerReport } from "./preparedWorkload.js";

/** Nothing lost or repeated, each summary applied once, each request honoured at the next boundary, no range summarized twice; and the workload did what it is for. */
export function expectPreparedWorkload(audit: PreparedAudit, reports: readonly PreparedWorkerReport[]): void {
  expect(reports.flatMap((r) => r.failures)).toEqual([]);
  for (const session of audit.sessions) expect(session, session.sessionId).toEqual({ sessionId: session.sessionId, lost: [], repeated: [] });
  expect(audit.appliedTwice).toEqual([]);
  const around = (request: PreparedAudit["requests"][number]) => audit.calls.filter((c) => c.session === request.session && Math.abs(c.at - request.at) < 3_000).sort((a, b) => a.at - b.at).map((c) => ({ ...c, at: c.at - request.at }));
  expect(audit.notHonoured.map((request) => ({ request, around: around(request) }))).toEqual([]);
  expect(audit.honouredTwice).toEqual([]);
  expect(audit.rangesSentTwice).toBe(0);
  // it exercised what it checks: summaries another worker prepared were applied, and requests were made
  expect(audit.calls.filter((c) => c.preparation?.fromStore === true && c.preparation.outcome !== "stale").length).toBeGreaterThan(0);
  expect(audit.requests.filter((r) => r.accepted).length).toBeGreaterThan(0);
}
