/** Runs `appendWorker.ts` as its own process: a second writer on a store file, for multi-process tests. */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../../../..");
const worker = join(here, "appendWorker.ts");

/** What the worker printed: turns appended, and the error text of every append that threw. */
export interface AppendRun {
  appended: number;
  failures: string[];
}

/**
 * Appends `count` turns (`<tag> turn <i>`) one by one to `sessionId` of the store at `path` from
 * another process, starting at `startAt` (epoch ms) so two workers begin together.
 */
export function appendInProcess(path: string, sessionId: string, count: number, tag: string, startAt = Date.now() + 1_500): Promise<AppendRun> {
  return new Promise((done, fail) => {
    const args = ["--import", "tsx", worker, path, sessionId, String(count), tag, String(startAt)];
    execFile(process.execPath, args, { cwd: repoRoot, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`append worker ${tag} failed: ${error.message}\n${stderr}`));
      done(JSON.parse(stdout.trim().split("\n").at(-1)!) as AppendRun);
    });
  });
}
