/**
 * Every YAML text the host reads (config files, plugin.yaml manifests, `config set` values) becomes a value
 * here: syntax errors and alias bombs ("billion laughs") are {@link ConfigError}s naming the file, or the
 * key a command-line value is for, and aliases are never expanded past {@link MAX_YAML_ALIAS_COUNT}.
 */
import type { Document } from "yaml";
import { yamlLibrary } from "./yamlLibrary.js";
import { ConfigError, type ConfigIssue } from "./configError.js";

/** How many alias expansions one YAML text may make (yaml's own default, named here). */
export const MAX_YAML_ALIAS_COUNT = 100;

/** Adds the usual fix to a YAML syntax message: `- @scope/pkg` needs quotes. */
function yamlHint(message: string): string {
  return /reserved character [@`]/.test(message) ? `${message.replace(/:$/, "")} — quote the value, e.g. "@context-engine/lcm"` : message;
}

/** The syntax errors of a parsed document as issues at `keyPath` (first line of each, with its line when counted). */
export function yamlSyntaxIssues(doc: Document.Parsed, keyPath = ""): ConfigIssue[] {
  return doc.errors.map((e) => ({ path: keyPath, message: yamlHint(e.message.split("\n")[0] ?? e.message), ...(e.linePos?.[0]?.line ? { line: e.linePos[0].line } : {}) }));
}

/**
 * The value of a parsed YAML document, aliases expanded at most {@link MAX_YAML_ALIAS_COUNT} times; more is
 * refused as a one-line {@link ConfigError} "`source` `keyPath`: the YAML was not expanded: …".
 */
export function yamlDocumentValue(doc: Document.Parsed, source: string, keyPath = ""): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown;
  } catch (error) {
    // yaml refuses an alias bomb with a ReferenceError instead of expanding it
    const message = `the YAML was not expanded: ${(error as Error).message} (more than ${MAX_YAML_ALIAS_COUNT} alias expansions; write the values out instead of repeating *aliases)`;
    throw new ConfigError([{ path: keyPath, message }], source, `${source}${keyPath ? ` ${keyPath}` : ""}: ${message}`);
  }
}

/**
 * YAML text (from `source`, a file path or "<command line>"; `keyPath`: the key the text is the value of) →
 * its value. Syntax errors and alias bombs are {@link ConfigError}s naming both.
 */
export function parseYamlText(text: string, source: string, keyPath = ""): unknown {
  const doc = yamlLibrary().parseDocument(text, { lineCounter: new (yamlLibrary().LineCounter)() });
  if (doc.errors.length > 0) {
    const issues = yamlSyntaxIssues(doc, keyPath);
    throw new ConfigError(issues, source, issues.map((i) => `${source}${i.line ? `:${i.line}` : ""}${keyPath ? ` ${keyPath}` : ""}: ${i.message}`).join("\n"));
  }
  return yamlDocumentValue(doc, source, keyPath);
}
