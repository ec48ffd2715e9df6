/** Test helper: each test of the calling suite gets a fresh `$HERMES_HOME` (the Codex notice's marker folder). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/** Points `$HERMES_HOME` at a new temp folder before each test and restores it after; returns the current folder. */
export function useTempHermesHome(): () => string {
  let previous: string | undefined;
  let home = "";
  beforeEach(() => {
    previous = process.env.HERMES_HOME;
    home = mkdtempSync(join(tmpdir(), "ce-hermes-"));
    process.env.HERMES_HOME = home;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.HERMES_HOME;
    else process.env.HERMES_HOME = previous;
  });
  return () => home;
}
