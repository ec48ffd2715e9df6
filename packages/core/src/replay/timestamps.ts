/**
 * When each replayed request is sent: from the transcript's `timestamp` fields when its messages carry
 * them (the prefix cache expires by time), else a fixed cadence.
 */
import type { ChatMessage } from "../messages/schema.js";

/** Default time between requests when the transcript has no timestamps. */
export const DEFAULT_REQUEST_CADENCE_MS = 20_000;

/** Default time of the first request when the transcript has no timestamps (2025-01-01T00:00:00Z). */
export const DEFAULT_REPLAY_START_MS = Date.UTC(2025, 0, 1);

/** Numbers below this are seconds since the epoch, not milliseconds. */
const SECONDS_BELOW = 1e12;

/**
 * A message's `timestamp` in ms since the epoch: a number (seconds or milliseconds) or a date string;
 * undefined when it has none or it does not parse.
 */
export function messageTimestampMs(message: ChatMessage): number | undefined {
  const value: unknown = (message as Record<string, unknown>).timestamp;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value < SECONDS_BELOW ? value * 1000 : value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/** Request times and where they came from. */
export interface RequestTimes {
  times: number[];
  source: "transcript" | "cadence";
}

/**
 * Pure: the send time of each request, given the transcript index of each request's response. With
 * timestamps, a request is sent at the latest timestamp of the messages before its response (its own
 * when none is before it), never earlier than the previous request; without any, `startMs + k × cadenceMs`.
 */
export function requestTimestamps(transcript: readonly ChatMessage[], responseIndexes: readonly number[], startMs: number, cadenceMs: number): RequestTimes {
  const stamps = transcript.map(messageTimestampMs);
  const first = stamps.find((t) => t !== undefined);
  if (first === undefined) return { times: responseIndexes.map((_, k) => startMs + k * cadenceMs), source: "cadence" };
  // latest[i] = the latest timestamp among messages 0..i.
  const latest: Array<number | undefined> = [];
  let running: number | undefined;
  for (const t of stamps) {
    if (t !== undefined) running = running === undefined ? t : Math.max(running, t);
    latest.push(running);
  }
  let previous = first;
  const times = responseIndexes.map((r) => {
    const t = (r > 0 ? latest[r - 1] : undefined) ?? latest[r] ?? previous;
    previous = Math.max(previous, t);
    return previous;
  });
  return { times, source: "transcript" };
}
