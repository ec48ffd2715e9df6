/**
 * Import rules of the workspace, checked with dependency-cruiser over the packages' sources (workspace
 * imports resolved to the sources they name, type-only imports counted): no import cycle, and the core's
 * contract (engine/, messages/, config/) never imports the built-in compressor, the Codex routes or the
 * summarizers; and the fidelity eval stays independent of what it measures: no summarizer, compressor or
 * src/facts/ module imports the eval (or the lab entry that carries it), and the eval imports none of them. `pnpm deps` prints the violations; test/dependencies.test.ts fails on them.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseOptions, type ICruiseResult } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

/** The source folders checked, relative to the repository root. */
export const SOURCE_FOLDERS = ["packages/core/src", "packages/cli/src", "packages/postgres/src", "packages/ai-sdk/src", "packages/langchain/src", "plugins/lcm/src"];

/** The rules, as dependency-cruiser `forbidden` rules. */
export const RULES: NonNullable<ICruiseOptions["ruleSet"]>["forbidden"] = [
  { name: "no-circular", comment: "an import cycle (type-only imports count)", severity: "error", from: {}, to: { circular: true } },
  {
    name: "contract-imports-down",
    comment: "the contract (engine, messages, config) does not import the compressor, the Codex routes or the summarizers",
    severity: "error",
    from: { path: "^packages/core/src/(engine|messages|config)/" },
    to: { path: "^packages/core/src/(compressor|codex|summarizers)/" },
  },
  {
    name: "summarizers-ignore-eval",
    comment: "a summarizer (the core's, the compressor's, src/facts/ or lcm's) does not import the eval's detectors or the lab entry that carries them",
    severity: "error",
    from: { path: "^(packages/core/src/(summarizers|compressor|facts)/|plugins/lcm/src/summar)" },
    to: { path: "^packages/core/src/(eval|lab)/" },
  },
  {
    name: "eval-independent",
    comment: "the eval measures with its own detectors: it imports no summarizer, compressor or src/facts/ module",
    severity: "error",
    from: { path: "^packages/core/src/eval/" },
    to: { path: "^(packages/core/src/(summarizers|compressor|facts)/|plugins/lcm/src/summar)" },
  },
];

/** One broken rule, in words: `rule: a.ts → b.ts` (a cycle lists its way back to where it started). */
export type Violation = string;

/** The rule violations among the sources under `folders` (relative to `cwd`). */
export async function dependencyViolations(cwd: string, folders: readonly string[] = SOURCE_FOLDERS): Promise<Violation[]> {
  const tsConfig = extractTSConfig(join(cwd, "tsconfig.json"));
  const options: ICruiseOptions = {
    baseDir: cwd, // files are named relative to it
    validate: true,
    ruleSet: { forbidden: RULES },
    exclude: { path: ["\\.test\\.ts$", "node_modules"] },
    doNotFollow: { path: "node_modules" },
    includeOnly: `^(${folders.map((f) => f.replaceAll(".", "\\.")).join("|")})/`,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(cwd, "tsconfig.json") },
    // workspace packages resolve to their sources, as the type checker and the tests see them
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["@context-engine/source", "import", "default"], extensions: [".ts", ".js", ".mjs"] },
  };
  const result = await cruise([...folders], options, {}, { tsConfig });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle ? v.cycle.map((step) => step.name) : [v.to])].join(" → ")}`);
}

async function main(): Promise<void> {
  const violations = await dependencyViolations(join(dirname(fileURLToPath(import.meta.url)), ".."));
  for (const violation of violations) console.log(violation);
  console.log(violations.length === 0 ? "No import cycle, and the contract imports down." : `${violations.length} violations.`);
  if (violations.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
