/**
 * Loading `config.yaml`: YAML → zod-validated {@link HostConfig}. Errors name the key path, the allowed
 * values and the file line; unknown keys are warnings (a Hermes config with keys we don't use still loads).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Document, LineCounter } from "yaml";
import { yamlLibrary } from "./yamlLibrary.js";
import { z } from "zod";
import { ConfigError } from "./configError.js";
import { HostConfigSchema, OWNED_SECTIONS, type HostConfig } from "./schema.js";
import { applyMovedKeys, movedKeyPath } from "./ownedSection.js";
import { parseYamlText, yamlDocumentValue, yamlSyntaxIssues } from "./yaml.js";
import { RESERVED_KEYS, isMapSchema, objectShape, shapeChild } from "./shape.js";

export { ConfigError, type ConfigIssue } from "./configError.js";

/**
 * Reads configuration from a file path, or parses the string as YAML text when it is not an existing
 * file but looks like YAML (has a newline or a `key:`). Relative `plugins:` entries stay as written;
 * they are resolved against `sourcePath`'s folder by the host.
 */
export async function loadConfig(pathOrYaml: string): Promise<HostConfig> {
  if (existsSync(pathOrYaml)) {
    const path = resolve(pathOrYaml);
    if (statSync(path).isDirectory()) throw new ConfigError([{ path: "", message: `${path} is a folder, not a config file` }], path, `config file expected, got a folder: ${path}`);
    const text = await readFile(path, "utf8");
    return parseConfigText(text, path);
  }
  if (/\n|^\s*[\w-]+\s*:/.test(pathOrYaml)) return parseConfigText(pathOrYaml, "<inline config>");
  throw new ConfigError([{ path: "", message: `config file not found: ${pathOrYaml}` }], pathOrYaml, `config file not found: ${pathOrYaml}`);
}

/** Parses YAML text (named `source` in errors) into a validated {@link HostConfig}. */
export function parseConfigText(text: string, source: string): HostConfig {
  const lineCounter = new (yamlLibrary().LineCounter)();
  const doc = yamlLibrary().parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(yamlSyntaxIssues(doc), source);
  }
  const raw = yamlDocumentValue(doc, source) ?? {};
  const config = validateConfigObject(raw, source, (path) => lineOf(doc, lineCounter, path));
  if (source !== "<inline config>") config.sourcePath = source;
  return config;
}

/** Validates an already-parsed config object; `lineOf` maps a key path to a source line when known. */
export function validateConfigObject(raw: unknown, source = "<config object>", lineOf?: (path: PropertyKey[]) => number | undefined): HostConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError([{ path: "", message: "the configuration must be a map of sections" }], source);
  }
  const reserved = reservedKeyPaths(raw);
  if (reserved.length > 0) {
    const message = "reserved key name (it names JavaScript's object prototype machinery and is never a setting); remove or rename it";
    throw new ConfigError(reserved.map((path) => ({ path: path.join("."), message, line: lineOf?.(path) })), source);
  }
  const normalized = normalizeSections(raw as Record<string, unknown>, HostConfigSchema);
  // keys that moved to another section: read at the old place too, each with a deprecation warning
  const { input, notes: moved } = applyMovedKeys(normalized.input, OWNED_SECTIONS);
  const notes = [...normalized.notes, ...moved];
  const parsed = HostConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message, line: lineOf?.(issue.path) })),
      source,
    );
  }
  const located = (path: string, text: string) => {
    const line = lineOf?.(path.split("."));
    return `${source}${line ? `:${line}` : ""}: ${text}`;
  };
  const warnings = [
    ...notes.map((n) => located(n.path, n.message)),
    ...unknownKeys(input, HostConfigSchema).map((path) => located(path, `unknown key ${path} (ignored)`)),
  ];
  // a top-level section may be a plugin's: the host warns once it knows which sections its plugins declare
  const unknownSections = Object.keys(input).filter((key) => !shapeChild(objectShape(HostConfigSchema), key)).map((name) => {
    const line = lineOf?.([name]);
    return { name, where: `${source}${line ? `:${line}` : ""}` };
  });
  return { ...parsed.data, warnings, unknownSections };
}

/**
 * Reads a YAML file the way people write it: a section left empty (`compression:` with every key
 * commented out, i.e. null) means "all defaults", and Hermes' `plugins:` map of per-plugin settings
 * is not our list of modules to load (a warning, no plugins). Returns a copy; `raw` is not changed.
 */
function normalizeSections(raw: Record<string, unknown>, schema: z.ZodType, prefix = ""): { input: Record<string, unknown>; notes: { path: string; message: string }[] } {
  const shape = objectShape(schema);
  const notes: { path: string; message: string }[] = [];
  if (!shape) return { input: raw, notes };
  const input: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(raw)) {
    const child = shapeChild(shape, key);
    const path = prefix ? `${prefix}.${key}` : key;
    if (!child) continue;
    if (value === null && isMapSchema(child)) delete input[key];
    else if (path === "plugins" && isPlainMap(value)) {
      delete input[key];
      notes.push({ path, message: "plugins is a map of per-plugin settings (Hermes style), not a list of modules to load; no plugins are loaded from it" });
    } else if (isPlainMap(value)) {
      const nested = normalizeSections(value, child, path);
      input[key] = nested.input;
      notes.push(...nested.notes);
    }
  }
  return { input, notes };
}

/** The key paths of every reserved key in `value` (own keys of maps, at any depth, lists included). */
function reservedKeyPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => reservedKeyPaths(item, [...path, index]));
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((key) =>
    RESERVED_KEYS.has(key) ? [[...path, key]] : reservedKeyPaths((value as Record<string, unknown>)[key], [...path, key]),
  );
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The line of the deepest key of `path` found in the document (the key's own line, not its value's). */
function lineOf(doc: Document, counter: LineCounter, path: PropertyKey[]): number | undefined {
  const { isMap, isNode, isScalar, isSeq } = yamlLibrary();
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      if (isNode(pair.key) && pair.key.range) line = counter.linePos(pair.key.range[0]).line;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      if (isNode(node) && node.range) line = counter.linePos(node.range[0]).line;
    } else break;
  }
  return line;
}

/**
 * The line of `keyPath` in the config file at `sourcePath`, for errors found after loading (strict mode);
 * undefined when the file cannot be read, lacks the key, or holds a value other than `expected` there.
 */
export function locateConfigKey(sourcePath: string, keyPath: PropertyKey[], expected?: unknown): number | undefined {
  let text: string;
  try {
    text = readFileSync(sourcePath, "utf8");
  } catch {
    return undefined;
  }
  return configKeyLine(text, keyPath, expected);
}

/** The line of `keyPath` in YAML `text` (see {@link locateConfigKey}); undefined when it is not there or the text does not parse. */
export function configKeyLine(text: string, keyPath: PropertyKey[], expected?: unknown): number | undefined {
  const counter = new (yamlLibrary().LineCounter)();
  const doc = yamlLibrary().parseDocument(text, { lineCounter: counter });
  if (doc.errors.length > 0) return undefined;
  if (expected !== undefined && String(doc.getIn(keyPath as unknown[])).trim() !== String(expected)) return undefined;
  return lineOf(doc, counter, keyPath);
}

/** Key paths present in `raw` that the schema does not know, below the top level (top-level sections may be plugins'). */
function unknownKeys(raw: Record<string, unknown>, schema: z.ZodType, prefix = ""): string[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const child = shapeChild(shape, key);
    if (!child) {
      if (prefix !== "") out.push(path);
      continue;
    }
    if (typeof value === "object" && value !== null && !Array.isArray(value)) out.push(...unknownKeys(value as Record<string, unknown>, child, path));
  }
  return out;
}

/** Sets `key.path` to `value` in a YAML text, keeping comments and layout (`context-engine config set`). */
export function setConfigValue(text: string, keyPath: string, value: unknown): string {
  const doc = yamlLibrary().parseDocument(text);
  if (!yamlLibrary().isMap(doc.contents) && doc.contents !== null) throw new ConfigError([{ path: "", message: "the configuration must be a map of sections" }], "<config>");
  // An old spelling of a moved key is written under its new key, and the old one removed.
  const moved = movedKeyPath(keyPath, OWNED_SECTIONS);
  if (moved !== undefined && doc.hasIn(keyPath.split("."))) doc.deleteIn(keyPath.split("."));
  doc.setIn((moved ?? keyPath).split("."), value);
  return doc.toString();
}

/** The key `config set` writes for `keyPath`: its new spelling when the key moved to another section, else itself. */
export function currentConfigKey(keyPath: string): string {
  return movedKeyPath(keyPath, OWNED_SECTIONS) ?? keyPath;
}

/**
 * A command-line value read as YAML: `false` → boolean, `0.4` → number, `5m` → string, `{a: 1}` → map.
 * Invalid YAML or an alias bomb is a {@link ConfigError} naming `key` (the key being set) on the command line.
 */
export function parseConfigValue(raw: string, key?: string): unknown {
  return parseYamlText(raw, "<command line>", key);
}

/** YAML text of a configuration object or value (for `context-engine config show`). */
export function formatConfigYaml(value: unknown): string {
  return yamlLibrary().stringify(value).trimEnd();
}
