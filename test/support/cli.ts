/** Runs the real `context-engine` CLI as a child process, for end-to-end tests. */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The CLI entry point. */
export const cliBin = join(repoRoot, "packages/cli/bin/context-engine.js");
/** The bundled real transcript (see test/fixtures/NOTICE.md). */
export const bundledTranscript = join(repoRoot, "test/fixtures/python-to-rust-port.json");

/** The environment without the npm/pnpm/vitest settings of the `pnpm test` that runs us (NODE_PATH reaches the workspace's hoisted packages), as in a user's shell. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_|vitest|node_path$|node_env$|node_options$)/i.test(k)));
  return { ...clean, ...extra };
}

/** Exit code and output of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` in `cwd` (no API keys in the environment, so no network summarizer is picked; `env` adds to it). */
export function runCli(args: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((done) => {
    execFile(process.execPath, [cliBin, ...args], { cwd, env: { ...process.env, OPENAI_API_KEY: "", OPENROUTER_API_KEY: "", ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A fresh temporary folder. */
export function tempDir(prefix = "ce-cli-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
