/**
 * A config section another room declares (a built-in route's settings, say): its fields with their
 * defaults, and the keys it took over from an older section. Config composes such sections into the
 * file's schema; the old spellings are still read, each with a deprecation warning naming the new key.
 */
import { z } from "zod";
import { sectionError } from "./fields.js";

/** A section declared outside config/: its name, its fields (each with a default) and where its keys used to live. */
export interface OwnedSection {
  /** The top-level key, e.g. `routing`. */
  name: string;
  fields: Readonly<Record<string, z.ZodDefault>>;
  /** An example setting for the "must be a map" message. */
  example: string;
  /** Its keys were once spelled `<section>.<prefix><key>`. */
  movedFrom: { section: string; prefix: string };
}

/** The section's schema: a map of its fields; an empty or absent section means all defaults. */
export function ownedSectionSchema<S extends OwnedSection>(section: S) {
  return z.object(section.fields as S["fields"], { error: sectionError(section.name, section.example) }).prefault({} as never);
}

/** The old spellings of `section`'s keys, as fields of the section they used to live in. */
export type MovedFields<S extends OwnedSection> = {
  [K in keyof S["fields"] & string as `${S["movedFrom"]["prefix"]}${K}`]: z.ZodOptional<ReturnType<S["fields"][K]["unwrap"]>>;
};

/** The old spellings as optional fields: validated like the new key, absent unless written (no default). */
export function movedFields<S extends OwnedSection>(section: S): MovedFields<S> {
  const entries = Object.entries(section.fields).map(([key, field]) => [section.movedFrom.prefix + key, z.optional(field.unwrap())]);
  return Object.fromEntries(entries) as MovedFields<S>;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The values `from` (the old section's map) holds under old spellings, keyed by their new key. */
export function movedValues(section: OwnedSection, from: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (!isMap(from)) return values;
  for (const key of Object.keys(section.fields)) {
    const value = from[section.movedFrom.prefix + key];
    if (value !== undefined) values[key] = value;
  }
  return values;
}

/** A note about a setting, located by its key path (`section.key`). */
export interface KeyNote {
  path: string;
  message: string;
}

/**
 * Reads the old spellings in `input` (the file's map, before validation): a valid value is copied to
 * its new key unless that key is set too (an invalid one is left for validation to report at its
 * place), and every old key found gets a note naming the new key. Returns a copy; `input` is not changed.
 */
export function applyMovedKeys(input: Record<string, unknown>, sections: readonly OwnedSection[]): { input: Record<string, unknown>; notes: KeyNote[] } {
  const output: Record<string, unknown> = { ...input };
  const notes: KeyNote[] = [];
  for (const section of sections) {
    const own: Record<string, unknown> = isMap(input[section.name]) ? { ...(input[section.name] as Record<string, unknown>) } : {};
    let copied = false;
    for (const [key, value] of Object.entries(movedValues(section, input[section.movedFrom.section]))) {
      const oldPath = `${section.movedFrom.section}.${section.movedFrom.prefix}${key}`;
      const newPath = `${section.name}.${key}`;
      const newSet = own[key] !== undefined;
      notes.push({ path: oldPath, message: `${oldPath} is deprecated; use ${newPath}${newSet ? ` (${newPath} is set too and wins)` : ""}` });
      if (newSet || !section.fields[key]!.safeParse(value).success) continue;
      own[key] = value;
      copied = true;
    }
    if (copied) output[section.name] = own;
  }
  return { input: output, notes };
}

/** The key an old spelling `keyPath` (e.g. `compression.codex_gpt55_autoraise`) moved to, or undefined when it did not move. */
export function movedKeyPath(keyPath: string, sections: readonly OwnedSection[]): string | undefined {
  for (const section of sections) {
    const prefix = `${section.movedFrom.section}.${section.movedFrom.prefix}`;
    if (!keyPath.startsWith(prefix)) continue;
    const key = keyPath.slice(prefix.length);
    if (Object.hasOwn(section.fields, key)) return `${section.name}.${key}`;
  }
  return undefined;
}
