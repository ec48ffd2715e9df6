/**
 * The modules a fresh Node process loads: runs `node --import <hook> <args>` with an ESM load hook that
 * reports every module URL on stderr, and returns those URLs (the process's own stderr lines are kept apart);
 * a bundle of a package's dist/ stands for the source modules bundled into it.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUNDLE_META_FILE } from "../../scripts/build.js";
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

/**
 * `urls` with each bundle of a package's dist/ replaced by the file URLs of the source modules in it (from
 * the package's dist/bundle-meta.json, written by the build), so a check names what was loaded, not a chunk.
 */
export function loadedSources(urls: string[]): string[] {
  return urls.flatMap((url) => {
    const match = /^(file:\/\/.*\/)dist\/(.+\.js)$/.exec(url);
    const metaFile = match ? join(fileURLToPath(match[1]!), "dist", BUNDLE_META_FILE) : undefined;
    if (!match || metaFile === undefined || !existsSync(metaFile)) return [url];
    const sources = (JSON.parse(readFileSync(metaFile, "utf8")) as Record<string, string[]>)[match[2]!];
    if (sources === undefined) throw new Error(`${metaFile} does not list ${match[2]}: rebuild (pnpm build)`);
    return sources.map((source) => match[1]! + source);
  });
}
