/**
 * A project outside the workspace that installs the packed tarballs, as the README tells a user to:
 * `pnpm pack:all` (every package into ./packs), then `npm install` of the tarballs into a temp folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, userEnv } from "../support/cli.js";
import { PACKS_FOLDER, type PublishedPackage, PUBLISHED_PACKAGES } from "../../scripts/packAll.js";
import { writeFiles } from "../support/files.js";

export { writeFiles, PUBLISHED_PACKAGES, type PublishedPackage };

/** Runs a command, returning stdout; a failure throws with the command's output. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", env: userEnv(env), stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** The command the README gives for packing every package, run from the repository root. */
export const PACK_ALL_COMMAND = ["npx", "--yes", "pnpm@12.4.2", "pack:all"] as const;

/** Runs the README's way: {@link PACK_ALL_COMMAND} packs every published package into ./packs; returns tarball paths by package name. */
export function packAll(): Record<PublishedPackage, string> {
  run(PACK_ALL_COMMAND[0], [...PACK_ALL_COMMAND.slice(1)], repoRoot);
  const dir = join(repoRoot, PACKS_FOLDER);
  const present = new Set(readdirSync(dir));
  const tarballs = {} as Record<PublishedPackage, string>;
  for (const [name, folder] of Object.entries(PUBLISHED_PACKAGES) as [PublishedPackage, string][]) {
    const { version } = JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as { version: string };
    const file = `${name.slice(1).replace("/", "-")}-${version}.tgz`;
    if (!present.has(file)) throw new Error(`${PACK_ALL_COMMAND.join(" ")} made no ${file} in ${dir}`);
    tarballs[name] = join(dir, file);
  }
  return tarballs;
}

/** The workspace's installed copy of a package as `fromFolder` sees it (its real folder), reused so the consumer compiles nothing. */
export function workspacePackage(name: string, fromFolder = "."): string {
  return realpathSync(join(repoRoot, fromFolder, "node_modules", name));
}

/**
 * A fresh project in the temp folder whose dependencies are `deps` (name → tarball or folder), then
 * `npm install <tarballs…>` as the README says. better-sqlite3, when wanted, is the workspace's built copy
 * (same version) instead of a second 80-second compile; scripts are off because none of our packages needs one.
 */
export function installProject(deps: Record<string, string>, devDeps: Record<string, string> = {}, tarballs: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), "ce-consumer-"));
  const spec = (path: string) => `file:${path}`;
  const manifest = {
    name: "consumer",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(Object.entries(deps).map(([n, p]) => [n, spec(p)])),
    devDependencies: Object.fromEntries(Object.entries(devDeps).map(([n, p]) => [n, spec(p)])),
    overrides: deps["better-sqlite3"] ? { "better-sqlite3": spec(deps["better-sqlite3"]) } : {},
  };
  writeFiles(root, { "package.json": JSON.stringify(manifest, null, 2) + "\n" });
  run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs], root, { npm_config_yes: "true" });
  return root;
}
