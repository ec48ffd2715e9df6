/**
 * A plugin's own config section (docs/BEHAVIOUR.md, "Plugin settings"): the zod schema a plugin declares
 * for it, checked like the host's sections — every problem names its key path, and the line where the
 * config file holds it. Schemas are used through their own methods (`safeParse`), so one built with
 * another copy of zod 4 works as well as one built with the `z` of `@context-engine/core`.
 */
import type { z } from "zod";
import type { ConfigIssue } from "./configError.js";
import { nearestConfigKey } from "./nearest.js";
import { keepsUnknownKeys, objectShape } from "./shape.js";

/** A plugin's settings schema: any zod 4 schema (usually `z.object({...})` with a default for every key). */
export type SettingsSchema = z.ZodType;

/** A config section a plugin declares: the top-level key, its schema, and the plugin (a file or package) it belongs to. */
export interface DeclaredSection {
  /** The top-level key, e.g. `head_tail`. */
  name: string;
  schema: SettingsSchema;
  /** Who declares it: the plugin's entry file or its `plugins:` specifier. */
  owner: string;
}

/** True when `value` can serve as a settings schema: a zod 4 schema (it has `safeParse` and zod 4's `_zod`). */
export function isSettingsSchema(value: unknown): value is SettingsSchema {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function" && "_zod" in value;
}

/** The outcome of checking a section against its schema: the parsed value, or located issues. */
export type SectionCheck = { ok: true; settings: unknown } | { ok: false; issues: ConfigIssue[] };

/**
 * Checks the value a config holds under `section.name` (absent or null: the defaults) against the
 * section's schema. `lineOf` finds the line of a key path in the config file, when there is one.
 */
export function checkSection(section: DeclaredSection, value: unknown, lineOf?: (path: (string | number)[]) => number | undefined): SectionCheck {
  const parsed = section.schema.safeParse(value ?? {});
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const path = [section.name, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const line = lineOf?.(path);
    return { path: path.join("."), message: issue.message, ...(line ? { line } : {}) };
  });
  return { ok: false, issues };
}

/**
 * The keys of `value` (the section as written) that the schema does not declare, as full key paths
 * with a "did you mean" when one is close (`head_tail.kep_last — did you mean head_tail.keep_last?`).
 * None for a schema that keeps unknown keys (its plugin reads them, e.g. lcm's `z.looseObject`).
 */
export function unknownSectionKeys(section: DeclaredSection, value: unknown): { path: string; hint: string }[] {
  const shape = objectShape(section.schema);
  if (shape === undefined || keepsUnknownKeys(section.schema) || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const known = Object.keys(shape);
  return Object.keys(value)
    .filter((key) => !Object.hasOwn(shape, key))
    .map((key) => {
      const near = nearestConfigKey(key, known);
      return { path: `${section.name}.${key}`, hint: near === undefined ? "" : ` — did you mean ${section.name}.${near}?` };
    });
}

/** The section's defaults: what its schema makes of an absent section (undefined when it needs values). */
export function sectionDefaults(section: DeclaredSection): unknown {
  const parsed = section.schema.safeParse({});
  return parsed.success ? parsed.data : undefined;
}
