/**
 * Reading a zod config schema as a tree of sections: object shapes behind wrappers, maps. Schemas are read
 * by their definition (`_zod.def.type`), not by `instanceof`, so a plugin's settings schema built with
 * another copy of zod 4 reads the same.
 */
import type { z } from "zod";

/** The object shape behind wrappers (default, prefault, optional, nullable, pipe); undefined for non-objects and records. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = innermost(schema);
  return inner !== undefined && kindOf(inner) === "object" ? (defOf(inner).shape as Record<string, z.ZodType>) : undefined;
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
  return inner !== undefined && (kindOf(inner) === "object" || kindOf(inner) === "record");
}

/** True when `schema` is a record (a map with free keys, such as `prices:` or `model_thresholds:`). */
export function isRecordSchema(schema: z.ZodType): boolean {
  const inner = innermost(schema);
  return inner !== undefined && kindOf(inner) === "record";
}

/**
 * True when `schema` is an object that keeps keys it does not declare (`z.looseObject`, `.catchall()`):
 * its owner reads them, so they are no unknown keys.
 */
export function keepsUnknownKeys(schema: z.ZodType): boolean {
  const inner = innermost(schema);
  if (inner === undefined || kindOf(inner) !== "object") return false;
  const catchall = defOf(inner).catchall;
  return catchall !== undefined && kindOf(catchall) !== "never";
}

interface SchemaDef {
  type?: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): SchemaDef {
  return ((schema as unknown as { _zod?: { def?: SchemaDef } })._zod?.def ?? {}) as SchemaDef;
}

/** The zod 4 kind of `schema` ("object", "record", "default", …), from its definition. */
function kindOf(schema: z.ZodType): string | undefined {
  return defOf(schema).type;
}

/** The schema behind wrappers; for a union, its object option (or undefined when it has none). */
function innermost(schema: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    const kind = kindOf(current);
    if (kind === "object" || kind === "record") return current;
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.in) current = def.in;
    else if (def.options) {
      const obj = def.options.find((o) => kindOf(o) === "object");
      if (!obj) return undefined;
      current = obj;
    } else return current;
  }
  return current;
}
