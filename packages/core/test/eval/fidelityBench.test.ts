/** The fidelity bench's held-out split (bench/fidelity.bench.ts): fixed, disjoint, real transcripts only, and honest about a missing corpus. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CORPUS, HELD_OUT, run, TUNE } from "../../../../bench/fidelity.bench.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the fidelity bench's split", () => {
  it("assigns each transcript to one side only, and no synthetic format fixture to either", () => {
    expect(HELD_OUT.filter((name) => TUNE.includes(name))).toEqual([]);
    expect(new Set(HELD_OUT).size).toBe(HELD_OUT.length);
    expect([...HELD_OUT, ...TUNE].filter((name) => /^claude-code-(log|transcripts)\//.test(name))).toEqual([]);
    // every source of the corpus has transcripts on both sides
    const sources = (list: readonly string[]) => new Set(list.map((name) => name.split("/")[0]));
    expect([...sources(HELD_OUT)].sort()).toEqual([...sources(TUNE)].sort());
  });

  it.runIf(existsSync(CORPUS))("names files that exist in ../shared/corpus", () => {
    expect([...HELD_OUT, ...TUNE].filter((name) => !existsSync(join(CORPUS, name)))).toEqual([]);
  });

  it("prints 'corpus unavailable' and measures nothing when the corpus is absent", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    await run(join(CORPUS, "no-such-folder"));
    expect(lines).toEqual(["corpus unavailable: ../shared/corpus is absent, so there is no held-out split to measure"]);
  });
});
