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
