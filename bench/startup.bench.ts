/**
 * Start-up costs a user feels: the compiled `context-engine` command (`--help`, `engines`) run as a
 * process, and a TypeScript directory engine loaded by the host cold (jiti compiles it) and warm (jiti's
 * disk cache). Figures only; issue #8's targets are printed beside them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(repoRoot, "packages/cli/bin/context-engine.js");
const RUNS = 7;
const HELP_TARGET_MS = 500;
const PLUGIN_TARGET_MS = 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Wall time of one `node <args>` process in ms. */
function timeProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): number {
  const started = performance.now();
  execFileSync(process.execPath, args, { cwd, stdio: "ignore", env: { ...process.env, ...env } });
  return performance.now() - started;
}

const ENGINE = `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Tiny extends ContextEngine {
  readonly name = "tiny";
  shouldCompress(t = this.lastPromptTokens): boolean { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages.slice(-1); }
}
`;

/** Prints the figures. */
export function run(): void {
  execFileSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"], { cwd: repoRoot, stdio: "inherit" });
  const help = median(Array.from({ length: RUNS }, () => timeProcess([cli, "--help"], repoRoot)));
  const engines = median(Array.from({ length: RUNS }, () => timeProcess([cli, "engines"], repoRoot)));
  console.log(`context-engine --help: median ${help.toFixed(0)} ms over ${RUNS} runs (target ≤ ${HELP_TARGET_MS} ms: ${help <= HELP_TARGET_MS ? "met" : "missed"}, ${(HELP_TARGET_MS / help).toFixed(1)}x under)`);
  console.log(`context-engine engines: median ${engines.toFixed(0)} ms over ${RUNS} runs (loads the core, resolves the engine)`);

  const root = mkdtempSync(join(tmpdir(), "ce-bench-startup-"));
  const cache = join(root, ".jiti-cache");
  mkdirSync(join(root, "plugins/context_engine/tiny"), { recursive: true });
  writeFileSync(join(root, "plugins/context_engine/tiny/index.ts"), ENGINE);
  const script = join(root, "load.mjs");
  const coreUrl = new URL("../packages/core/dist/index.js", import.meta.url).href;
  writeFileSync(
    script,
    `import { createContextHost, ContextEngine } from ${JSON.stringify(coreUrl)};
const t = performance.now();
const host = await createContextHost({ config: { context: { engine: "tiny" } }, rootDir: ${JSON.stringify(root)} });
if (!(host.engine instanceof ContextEngine) || host.engine.name !== "tiny") throw new Error("engine not shared: " + host.warnings.join("; "));
process.stdout.write(String(performance.now() - t));
`,
  );
  const load = (env: NodeJS.ProcessEnv) => Number(execFileSync(process.execPath, [script], { cwd: root, encoding: "utf8", env: { ...process.env, ...env } }));
  const cold = median(Array.from({ length: RUNS }, () => load({ JITI_FS_CACHE: "false" })));
  load({ JITI_FS_CACHE: cache });
  const warm = median(Array.from({ length: RUNS }, () => load({ JITI_FS_CACHE: cache })));
  rmSync(root, { recursive: true, force: true });
  console.log(`TypeScript directory engine load (createContextHost): cold ${cold.toFixed(0)} ms, warm ${warm.toFixed(0)} ms (target ≤ ${PLUGIN_TARGET_MS} ms warm: ${warm <= PLUGIN_TARGET_MS ? "met" : "missed"}); instanceof ContextEngine holds`);
}
