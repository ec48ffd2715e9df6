/**
 * The modules a fresh Node process loads: runs `node --import <hook> <args>` with an ESM load hook that
 * reports every module URL on stderr, and returns those URLs (the process's own stderr lines are kept apart).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./cli.js";

const MARK = "LOADED-MODULE ";

/** Writes the hook files once per test process. */
function hookFile(): string {
  const dir = tempDir("ce-loaded-");
  writeFileSync(join(dir, "hooks.mjs"), `export async function load(url, context, next) { process.stderr.write(${JSON.stringify(MARK)} + url + "\\n"); return next(url, context); }\n`);
  const register = join(dir, "register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
  return register;
}

/** The file URLs of every ES module `node <args>` loaded in `cwd` (it must exit 0). */
export function loadedModules(args: string[], cwd: string): Promise<string[]> {
  const register = hookFile();
  return new Promise((done, fail) => {
    execFile(process.execPath, ["--import", register, ...args], { cwd, timeout: 60_000, maxBuffer: 16 << 20 }, (error, _stdout, stderr) => {
      if (error) return fail(new Error(`node ${args.join(" ")} failed: ${stderr}`));
      done(stderr.split("\n").filter((line) => line.startsWith(MARK)).map((line) => line.slice(MARK.length)));
    });
  });
}
