import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runConformance } from "@context-engine/core/conformance";
import type { LcmEngine } from "../src/engine.js";
import { makeEngine, tempDir } from "./support.js";

describe("lcm and the conformance suite", () => {
  let dir: string;
  let cleanup: () => void;
  const engines: LcmEngine[] = [];
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => {
    for (const engine of engines.splice(0)) engine.close();
    cleanup();
  });

  it("passes every check, a latest ask that starts like a compaction summary included", async () => {
    let n = 0;
    const report = await runConformance(() => {
      const engine = makeEngine(dir, { dbPath: `${dir}/conformance-${n++}.db` });
      engines.push(engine);
      return engine;
    });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.some((c) => c.name.includes("starts like a compaction summary"))).toBe(true);
  });
});
