/**
 * `pnpm api`: writes the API report of every public entry (`<package>/etc/<entry>.api.md`) and docs/API.md
 * from them. `pnpm api:check` (run by `pnpm test`) fails when either no longer matches the built code, or
 * when CHANGELOG.md says a name moved to an entry that does not export it.
 * Both read dist/: build first (`pnpm build`; the test run builds by itself).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { changelogProblems, CHANGELOG, namesByEntry } from "./changelog.js";
import { apiMarkdown, oneLine } from "./docs.js";
import { publishedEntries, type PackageEntry } from "./entries.js";
import { extractPackage, REPORT_FOLDER, type EntryReport } from "./extract.js";

/** The package whose entries lead docs/API.md. */
const CORE = "@context-engine/core";
/** The generated API index, relative to the repository root. */
export const API_DOC = "docs/API.md";
/** The command that brings the reports and docs/API.md up to date. */
export const UPDATE_COMMAND = "pnpm build && pnpm api";

/** Every file the API tooling writes, with the text it should hold now. */
export interface ApiFiles {
  files: Map<string, string>;
  /** Report files on disk that no entry makes any more. */
  stale: string[];
  /** Where each name of the core lives now: name → the entries exporting it. */
  homes: Map<string, string[]>;
}

/** The first doc comment of an entry's source file, as one line (the entry's summary). */
function entryIntro(repoRoot: string, entry: PackageEntry): string {
  const text = readFileSync(join(repoRoot, entry.packageDir, entry.source), "utf8");
  const comment = /^\s*(\/\*\*[\s\S]*?\*\/)/.exec(text)?.[1];
  return oneLine(comment);
}

/** The reports and docs/API.md as the built code makes them now. */
export function generateApiFiles(repoRoot: string): ApiFiles {
  const entries = publishedEntries(repoRoot);
  // the core first, then the other packages by name
  const packages = [...new Set(entries.map((e) => e.packageName))].sort((a, b) => Number(b === CORE) - Number(a === CORE) || a.localeCompare(b));
  const reports: EntryReport[] = packages.flatMap((name) => extractPackage(repoRoot, entries.filter((e) => e.packageName === name)));
  const files = new Map(reports.map((r) => [r.reportPath, r.report]));
  files.set(API_DOC, apiMarkdown(reports, new Map(entries.map((e) => [e.specifier, entryIntro(repoRoot, e)]))));
  const stale: string[] = [];
  for (const dir of new Set(entries.map((e) => e.packageDir))) {
    const folder = join(repoRoot, dir, REPORT_FOLDER);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) if (file.endsWith(".api.md") && !files.has(join(dir, REPORT_FOLDER, file))) stale.push(join(dir, REPORT_FOLDER, file));
  }
  return { files, stale, homes: namesByEntry(reports) };
}

/** What differs between the committed files and `generated`, one line per file (empty: all up to date). */
export function apiDifferences(repoRoot: string, generated: ApiFiles): string[] {
  const problems: string[] = [];
  for (const [path, text] of generated.files) {
    const full = join(repoRoot, path);
    if (!existsSync(full)) problems.push(`${path} is missing`);
    else if (readFileSync(full, "utf8") !== text) problems.push(`${path} no longer matches the code`);
  }
  for (const path of generated.stale) problems.push(`${path} reports an entry that no longer exists`);
  const changelog = join(repoRoot, CHANGELOG);
  if (existsSync(changelog)) problems.push(...changelogProblems(readFileSync(changelog, "utf8"), generated.homes));
  return problems;
}

/** Writes the generated files and removes stale reports. */
export function writeApiFiles(repoRoot: string, generated: ApiFiles): void {
  for (const [path, text] of generated.files) {
    mkdirSync(dirname(join(repoRoot, path)), { recursive: true });
    writeFileSync(join(repoRoot, path), text);
  }
  for (const path of generated.stale) rmSync(join(repoRoot, path));
}

function main(): void {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
  const generated = generateApiFiles(repoRoot);
  if (process.argv.includes("--check")) {
    const problems = apiDifferences(repoRoot, generated);
    if (problems.length > 0) {
      console.error(`The public API changed without its reports:\n  ${problems.join("\n  ")}\nRun \`${UPDATE_COMMAND}\` and commit the result.`);
      process.exitCode = 1;
    } else console.log(`API reports and ${API_DOC} are up to date (${generated.files.size - 1} entries).`);
    return;
  }
  writeApiFiles(repoRoot, generated);
  console.log(`Wrote ${generated.files.size - 1} API reports and ${API_DOC}${generated.stale.length ? `; removed ${generated.stale.join(", ")}` : ""}.`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
