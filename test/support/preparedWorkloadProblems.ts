/** What the prepared-summaries workload must show on every store (preparedWorkers.ts), as a list of problems: empty when it passed. */
import type { PreparedAudit } from "./preparedWorkers.js";
import type { PreparedWorkerReport } from "./preparedWorkload.js";

/**
 * Nothing lost or repeated, each summary applied once, each request honoured at the next boundary, no
 * range summarized twice, no call failed; and the workload did what it is for (summaries another worker
 * prepared were applied, requests were made). Each problem says what and where.
 */
export function preparedWorkloadProblems(audit: PreparedAudit, reports: readonly PreparedWorkerReport[]): string[] {
  const problems = reports.flatMap((r) => r.failures.map((failure) => `worker ${r.worker}: ${failure}`));
  for (const session of audit.sessions) {
    if (session.lost.length > 0) problems.push(`${session.sessionId}: turns lost ${session.lost.join(", ")}`);
    if (session.repeated.length > 0) problems.push(`${session.sessionId}: turns repeated ${session.repeated.join(", ")}`);
  }
  if (audit.appliedTwice.length > 0) problems.push(`summaries applied twice: ${audit.appliedTwice.join(", ")}`);
  const around = (request: PreparedAudit["requests"][number]) =>
    audit.calls.filter((c) => c.session === request.session && Math.abs(c.at - request.at) < 3_000).sort((a, b) => a.at - b.at).map((c) => ({ ...c, at: Math.round(c.at - request.at) }));
  for (const request of audit.notHonoured) problems.push(`request not honoured within one turn: ${JSON.stringify({ request, around: around(request) })}`);
  if (audit.honouredTwice.length > 0) problems.push(`requests honoured twice: ${audit.honouredTwice.join(", ")}`);
  if (audit.rangesSentTwice > 0) problems.push(`ranges sent to the summarizer twice for the same focus: ${audit.rangesSentTwice}`);
  if (!audit.calls.some((c) => c.preparation?.fromStore === true && c.preparation.outcome !== "stale")) problems.push("no summary another worker prepared was applied");
  if (!audit.requests.some((r) => r.accepted)) problems.push("no compact_context request was accepted");
  return problems;
}
