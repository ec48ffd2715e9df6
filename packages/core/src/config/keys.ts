/**
 * Which key paths the configuration knows, for `context-engine config set`: a key of the schema, any key
 * of a free map (`prices:`, `model_thresholds:`), or a key of a section a plugin declares (`head_tail:`,
 * `lcm:`), checked against that plugin's schema.
 */
import type { z } from "zod";
import { HostConfigSchema } from "./schema.js";
import { RESERVED_KEYS, isRecordSchema, objectShape, shapeChild } from "./shape.js";
import { nearestConfigKey } from "./nearest.js";
import type { DeclaredSection } from "./pluginSettings.js";

export { nearestConfigKey } from "./nearest.js";

/**
 * Checks `keyPath` (e.g. `compression.threshold`, `head_tail.keep_last`) against the schema and the
 * sections plugins declare (`sections`): undefined when it is a known key, else one line naming it and,
 * when one is close, the nearest known key (`did you mean ...?`).
 */
export function unknownConfigKeyMessage(keyPath: string, sections: readonly DeclaredSection[] = []): string | undefined {
  const segments = keyPath.split(".");
  const reserved = segments.find((segment) => RESERVED_KEYS.has(segment));
  if (reserved !== undefined) return `${keyPath} is not a configuration key — '${reserved}' is a reserved name`;
  let schema: z.ZodType = HostConfigSchema;
  for (const [i, segment] of segments.entries()) {
    if (isRecordSchema(schema)) return undefined;
    const shape = objectShape(schema);
    const child = i === 0 ? (shapeChild(shape, segment) ?? sections.find((s) => s.name === segment)?.schema) : shapeChild(shape, segment);
    if (!child) {
      const siblings = [...Object.keys(shape ?? {}), ...(i === 0 ? sections.map((s) => s.name) : [])];
      const near = nearestConfigKey(segment, siblings);
      const suggestion = near === undefined ? "" : ` — did you mean ${[...segments.slice(0, i), near, ...segments.slice(i + 1)].join(".")}?`;
      const unowned = i === 0 && segments.length > 1 && near === undefined ? ` (no plugin declares a ${segment} section)` : "";
      return `${keyPath} is not a configuration key${suggestion}${unowned}`;
    }
    schema = child;
  }
  return undefined;
}
