/** Reading the zod config schema as a tree of sections: object shapes behind wrappers, maps, plugin sections. */
import { z } from "zod";

/** Top-level sections that belong to the shipped plugins: kept for them, their keys are the plugin's own. */
export const PLUGIN_SECTIONS: ReadonlySet<string> = new Set(["lcm", "sliding_window"]);

/** The object shape behind wrappers (default, prefault, optional, nullable, pipe); undefined for non-objects and records. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = innermost(schema);
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : undefined;
}

/** Key names refused anywhere in a configuration: reading or copying them could reach Object's prototype. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The schema of `key` in `shape`: own keys only, so `constructor` or `toString` is no known key. */
export function shapeChild(shape: Record<string, z.ZodType> | undefined, key: string): z.ZodType | undefined {
  return shape !== undefined && Object.hasOwn(shape, key) ? shape[key] : undefined;
}

/** True when `schema` describes a map (a section object or a record such as `prices:`). */
export function isMapSchema(schema: z.ZodType): boolean {
  const inner = innermost(schema);
  return inner instanceof z.ZodObject || inner instanceof z.ZodRecord;
}

/** True when `schema` is a record (a map with free keys, such as `prices:` or `model_thresholds:`). */
export function isRecordSchema(schema: z.ZodType): boolean {
  return innermost(schema) instanceof z.ZodRecord;
}

/** The schema behind wrappers; for a union, its object option (or undefined when it has none). */
function innermost(schema: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    if (current instanceof z.ZodObject || current instanceof z.ZodRecord) return current;
    const def = (current as unknown as { _zod: { def: { innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[] } } })._zod.def;
    if (def.innerType) current = def.innerType;
    else if (def.in) current = def.in;
    else if (def.options) {
      const obj = def.options.find((o) => o instanceof z.ZodObject);
      if (!obj) return undefined;
      current = obj;
    } else return current;
  }
  return current;
}
