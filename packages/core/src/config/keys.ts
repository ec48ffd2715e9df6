/**
 * Which key paths the configuration knows, for `context-engine config set`: a key of the schema, any key
 * of a free map (`prices:`, `model_thresholds:`), or any key of a shipped plugin's section (`lcm:`), which
 * loading also passes through to the plugin untouched.
 */
import type { z } from "zod";
import { HostConfigSchema } from "./schema.js";
import { PLUGIN_SECTIONS, RESERVED_KEYS, isRecordSchema, objectShape, shapeChild } from "./shape.js";

/**
 * Checks `keyPath` (e.g. `compression.threshold`) against the schema: undefined when it is a known key,
 * else one line naming it and, when one is close, the nearest known key (`did you mean ...?`).
 */
export function unknownConfigKeyMessage(keyPath: string): string | undefined {
  const segments = keyPath.split(".");
  const reserved = segments.find((segment) => RESERVED_KEYS.has(segment));
  if (reserved !== undefined) return `${keyPath} is not a configuration key — '${reserved}' is a reserved name`;
  let schema: z.ZodType = HostConfigSchema;
  for (const [i, segment] of segments.entries()) {
    if (i === 0 && PLUGIN_SECTIONS.has(segment)) return undefined;
    if (isRecordSchema(schema)) return undefined;
    const shape = objectShape(schema);
    const child = shapeChild(shape, segment);
    if (!child) {
      const siblings = [...Object.keys(shape ?? {}), ...(i === 0 ? PLUGIN_SECTIONS : [])];
      const near = nearestConfigKey(segment, siblings);
      const suggestion = near === undefined ? "" : ` — did you mean ${[...segments.slice(0, i), near, ...segments.slice(i + 1)].join(".")}?`;
      return `${keyPath} is not a configuration key${suggestion}`;
    }
    schema = child;
  }
  return undefined;
}

/** The candidate closest to `word` by edit distance, if it is close enough to be a likely typo (for "did you mean"). */
export function nearestConfigKey(word: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance between `a` and `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
