/**
 * A project outside the workspace that installs the packed tarballs, as a user's project would:
 * `pnpm pack` of every package, then `npm install` of the tarballs into a temp folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, userEnv } from "../support/cli.js";
import { writeFiles } from "../support/files.js";

export { writeFiles };

/** The workspace packages that are published, by folder. */
export const PUBLISHED_PACKAGES = {
  "@context-engine/core": "packages/core",
  "@context-engine/cli": "packages/cli",
  "@context-engine/lcm": "plugins/lcm",
  "@context-engine/ai-sdk": "packages/ai-sdk",
  "@context-engine/langchain": "packages/langchain",
  "@context-engine/postgres": "packages/postgres",
} as const;
/** A published package name. */
export type PublishedPackage = keyof typeof PUBLISHED_PACKAGES;

/** Runs a command, returning stdout; a failure throws with the command's output. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", env: userEnv(env), stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** Packs every published package (the built dist/) into a fresh folder; returns tarball paths by package name. */
export function packAll(): Record<PublishedPackage, string> {
  const out = mkdtempSync(join(tmpdir(), "ce-packs-"));
  const tarballs = {} as Record<PublishedPackage, string>;
  for (const [name, folder] of Object.entries(PUBLISHED_PACKAGES) as [PublishedPackage, string][]) {
    const before = new Set(readdirSync(out));
    run("npx", ["--yes", "pnpm@12.4.2", "pack", "--pack-destination", out], join(repoRoot, folder));
    const made = readdirSync(out).filter((f) => !before.has(f) && f.endsWith(".tgz"));
    if (made.length !== 1) throw new Error(`pnpm pack of ${name} made ${made.length} tarballs`);
    tarballs[name] = join(out, made[0]!);
  }
  return tarballs;
}

/** The workspace's installed copy of a package as `fromFolder` sees it (its real folder), reused so the consumer compiles nothing. */
export function workspacePackage(name: string, fromFolder = "."): string {
  return realpathSync(join(repoRoot, fromFolder, "node_modules", name));
}

/**
 * A fresh project in the temp folder whose dependencies are `deps` (name → tarball or folder), installed
 * with npm. better-sqlite3, when wanted, is the workspace's built copy (same version) instead of a
 * second 80-second compile; scripts are off because none of our packages needs one.
 */
export function installProject(deps: Record<string, string>, devDeps: Record<string, string> = {}): string {
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
  run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], root, { npm_config_yes: "true" });
  return root;
}
