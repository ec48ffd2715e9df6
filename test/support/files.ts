/** Temp folders with files, for tests that need a project on disk. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes `files` (relative path → text) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A fresh temp folder holding `files`. */
export function tempProject(files: Record<string, string>, prefix = "ce-project-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeFiles(root, files);
  return root;
}

/**
 * A YAML "billion laughs" map: `depth` anchored lists, each ten aliases of the one before (10^depth
 * values once expanded), keys indented by `indent`.
 */
export function yamlAliasBomb(depth = 10, indent = ""): string {
  const name = (i: number) => String.fromCharCode(97 + i);
  const levels = [`${name(0)}: &${name(0)} [x, x, x, x, x, x, x, x, x, x]`];
  for (let i = 1; i < depth; i++) levels.push(`${name(i)}: &${name(i)} [${Array(10).fill(`*${name(i - 1)}`).join(", ")}]`);
  return levels.map((l) => `${indent}${l}\n`).join("");
}
