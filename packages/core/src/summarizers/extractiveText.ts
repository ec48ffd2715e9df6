/** Pure text helpers of the ExtractiveSummarizer: shortening, sentences, values, command outcomes. */
import { errorSignatures } from "../facts/errorSignatures.js";
import { URL_PATTERN as URL } from "../facts/paths.js";

export { findFolders, findPaths } from "../facts/paths.js";

/** Collapses whitespace to single spaces and cuts `text` to at most `max` characters (ending in "…"). */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  if (max <= 1) return "…";
  return flat.slice(0, max - 1).trimEnd() + "…";
}

/** Sentences and lines of `text`, trimmed, without empty ones. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z`"'(\[])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Keeps the first occurrence of each item (compared case-insensitively, whitespace collapsed). */
export function dedupe(items: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.replace(/\s+/g, " ").trim().toLowerCase();
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

const CONSTRAINT = /\b(must|mustn't|should|shouldn't|don't|do not|never|always|prefer|please use|make sure|avoid|only use)\b/i;
/** True for a sentence that states a constraint or preference. */
export function isConstraint(sentence: string): boolean {
  return CONSTRAINT.test(sentence);
}

const DECISION = /\b(decided|decide to|will use|I'll use|we'll use|going with|instead|because|chose|opted|switch(ed)? to)\b/i;
/** True for a sentence that records a decision and its reason. */
export function isDecision(sentence: string): boolean {
  return DECISION.test(sentence);
}

/** Specific values worth keeping verbatim, by kind. */
export interface FoundValues {
  versions: string[];
  ports: string[];
  urls: string[];
  ids: string[];
}

const VERSION = /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?![\w.])/g;
const PORT = /\b(?:port\s*[:=]?\s*|(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):)(\d{2,5})\b/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const NAMED_ID = /\b((?:[a-z]+[_-])?id)["']?\s*[:=]\s*["']?([A-Za-z0-9][\w.-]{2,})/gi;
const REFERENCE = /\b((?:PR|issue|ticket|commit)\s+#?[0-9a-f]{2,40})\b/gi;
/** What every match of {@link PORT}, {@link NAMED_ID} and {@link REFERENCE} holds. */
const PORT_HINT = /port|localhost|127\.0\.0\.1|0\.0\.0\.0|\[::/i;
const NAMED_ID_HINT = /id["']?\s*[:=]/i;
const REFERENCE_HINT = /PR|issue|ticket|commit/i;

/** Versions (x.y.z), ports, URLs and ids found in `text`. */
export function findValues(text: string): FoundValues {
  // Each pattern runs only on text holding what every match of it holds (a cheap search first): most
  // texts have no URL, port or named id, and these patterns try a match at every word.
  const hasUrl = text.includes("://");
  const urls = hasUrl ? [...text.matchAll(URL)].map((m) => m[0].replace(/[.,;:]+$/, "")) : [];
  const ports = PORT_HINT.test(text) ? [...text.matchAll(PORT)].map((m) => m[1] ?? "") : [];
  const versions = [...(hasUrl ? text.replace(URL, " ") : text).matchAll(VERSION)].map((m) => m[0]);
  const ids = [
    ...[...text.matchAll(UUID)].map((m) => m[0]),
    ...(NAMED_ID_HINT.test(text) ? [...text.matchAll(NAMED_ID)].map((m) => `${m[1]}=${m[2]}`) : []),
    ...(REFERENCE_HINT.test(text) ? [...text.matchAll(REFERENCE)].map((m) => m[1] ?? "") : []),
  ];
  return { versions: dedupe(versions), ports: dedupe(ports), urls: dedupe(urls), ids: dedupe(ids) };
}

const TEST_COUNTS = /\b(\d+)\s+(passed|failed|errors?|skipped|xfailed|warnings?)\b/gi;

/**
 * What a command's output says, in a few words, or "" when it says nothing worth keeping: the exit
 * status it shows ("exit 1"), test counts ("8 passed, 2 failed"), else its first error signature, else a
 * short one-line output (a version, a count). Line counts and "no output" are not worth keeping.
 */
export function describeOutcome(output: string): string {
  const parts: string[] = [];
  const exit = /\bexit(?:ed)?(?:\s+with)?(?:\s+code|\s+status|_code|Code)?["']?\s*[:=]?\s*(-?\d+)\b/i.exec(output);
  if (exit) parts.push(`exit ${exit[1]}`);
  const counts = new Map<string, string>();
  for (const match of output.matchAll(TEST_COUNTS)) {
    counts.set((match[2] ?? "").toLowerCase().replace(/s$/, ""), `${match[1]} ${(match[2] ?? "").toLowerCase()}`);
  }
  parts.push(...counts.values());
  if (parts.length > 0) return parts.join(", ");
  const error = errorSignatures(output, 1)[0];
  if (error) return shorten(error, 120);
  const trimmed = output.trim();
  if (trimmed !== "" && !trimmed.includes("\n") && trimmed.length <= SHORT_OUTPUT_CHARS && !trimmed.startsWith("[")) return trimmed;
  return "";
}

/** A one-line output up to this long is kept as a command's outcome. */
const SHORT_OUTPUT_CHARS = 60;

/** True when an outcome reads as a failure (non-zero exit, failed tests, an error signature). */
export function isFailureOutcome(output: string): boolean {
  const exit = /\bexit(?:ed)?(?:\s+with)?(?:\s+code|\s+status|_code|Code)?["']?\s*[:=]?\s*(-?\d+)\b/i.exec(output);
  if (exit) return exit[1] !== "0";
  if (/\b[1-9]\d*\s+(failed|errors?)\b/i.test(output)) return true;
  if (/\b\d+\s+passed\b/i.test(output)) return false;
  return errorSignatures(output, 1).length > 0;
}
