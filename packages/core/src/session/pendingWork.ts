/**
 * The work a session's workers left each other in a shared store (docs/BEHAVIOUR.md, "Many workers"): the
 * agent's `compact_context` requests not honoured yet, summaries prepared in the background and ready to
 * apply, and preparations a worker is still writing. Read from the store's engine states of the session
 * (`EngineStateStore.engineStates`) by the keys engines share work under; an operator's view
 * (`context-engine sessions show`) lists it. Pure: the caller reads the store.
 */
import { COMPACT_REQUEST_KEY_SUFFIX } from "../engine/compactContextTool.js";
import { PREPARED_KEY_SUFFIX, PREPARING_KEY_SUFFIX } from "../compressor/sharedPreparations.js";
import { SHARED_CLAIM_MS } from "../store/sharedWork.js";
import type { EngineStateEntry } from "../store/types.js";

/** One piece of work left in the store for a session, by the engine that left it. */
export type PendingWork =
  /** The agent asked for a compaction (with its focus, when it gave one): the session's next turn boundary honours it. */
  | { kind: "compact_request"; engine: string; focus?: string; since: number }
  /** A summary prepared in the background is saved: the worker that takes the trigger applies it (`messages`: the range it covers). */
  | { kind: "prepared_summary"; engine: string; messages?: number; since: number }
  /** A worker is preparing a summary (its claim holds until `expiresAt`, renewed while it works). */
  | { kind: "preparing"; engine: string; messages?: number; since: number; expiresAt: number };

/** The name `key` gives before `suffix`, when it ends with it. */
function engineOf(key: string, suffix: string): string | undefined {
  return key.endsWith(suffix) && key.length > suffix.length ? key.slice(0, -suffix.length) : undefined;
}

/** A whole number field of `state`, when it has one. */
function countOf(state: unknown, field: string): number | undefined {
  const value = typeof state === "object" && state !== null ? (state as Record<string, unknown>)[field] : undefined;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The pending work among a session's engine states; a claim that expired before `now` is no work (its worker is gone). */
export function pendingWorkOf(entries: readonly EngineStateEntry[], now: number = Date.now()): PendingWork[] {
  const work: PendingWork[] = [];
  for (const { engine: key, state, updatedAt } of entries) {
    const requested = engineOf(key, COMPACT_REQUEST_KEY_SUFFIX);
    if (requested !== undefined) {
      const focus = typeof state === "object" && state !== null ? (state as { focus?: unknown }).focus : undefined;
      work.push({ kind: "compact_request", engine: requested, ...(typeof focus === "string" && focus !== "" ? { focus } : {}), since: updatedAt });
      continue;
    }
    const messages = countOf(state, "messages");
    const prepared = engineOf(key, PREPARED_KEY_SUFFIX);
    if (prepared !== undefined) {
      work.push({ kind: "prepared_summary", engine: prepared, ...(messages === undefined ? {} : { messages }), since: updatedAt });
      continue;
    }
    const preparing = engineOf(key, PREPARING_KEY_SUFFIX);
    const claimedAt = countOf(state, "claimedAt") ?? updatedAt;
    if (preparing !== undefined && claimedAt + SHARED_CLAIM_MS >= now) {
      work.push({ kind: "preparing", engine: preparing, ...(messages === undefined ? {} : { messages }), since: claimedAt, expiresAt: claimedAt + SHARED_CLAIM_MS });
    }
  }
  return work;
}

/** One line of `work` for people: what is pending, for which engine, since when (ISO minutes, UTC). */
export function pendingWorkLine(work: PendingWork): string {
  const at = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 16);
  const range = work.kind !== "compact_request" && work.messages !== undefined ? ` of the first ${work.messages} messages` : "";
  if (work.kind === "compact_request") return `compact_context request${work.focus === undefined ? "" : ` (focus: ${JSON.stringify(work.focus)})`} for engine '${work.engine}', made ${at(work.since)}: the next turn compacts`;
  if (work.kind === "prepared_summary") return `summary${range} prepared in the background for engine '${work.engine}', saved ${at(work.since)}: the trigger applies it`;
  return `a worker is preparing a summary${range} for engine '${work.engine}' since ${at(work.since)} (its claim expires ${at(work.expiresAt)} unless renewed)`;
}
