/** The packages' import graph: no cycle, the core's contract imports only downward, and the eval shares no code with the summarizers (scripts/dependencies.ts). */
import { describe, expect, it } from "vitest";
import { dependencyViolations } from "../scripts/dependencies.js";
import { repoRoot } from "./support/cli.js";
import { tempProject } from "./support/files.js";

describe("the import graph", () => {
  it("has no import cycle in the packages' sources, the contract never imports the compressor, Codex or summarizers, and the eval and the summarizers never import each other", async () => {
    const violations = await dependencyViolations(repoRoot);
    expect(violations).toEqual([]);
  }, 120_000);

  it("counts a cycle made of type-only imports, and an upward import from the contract", async () => {
    const root = tempProject(
      {
        "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }),
        "packages/core/src/engine/a.ts": 'import type { B } from "./b.js";\nexport interface A { b?: B }\n',
        "packages/core/src/engine/b.ts": 'import type { A } from "./a.js";\nexport interface B { a?: A }\n',
        "packages/core/src/messages/m.ts": 'import { phase } from "../compressor/phase.js";\nexport const m = phase;\n',
        "packages/core/src/compressor/phase.ts": "export const phase = 1;\n",
      },
      "ce-imports-",
    );
    expect((await dependencyViolations(root, ["packages/core/src"])).sort()).toEqual([
      "contract-imports-down: packages/core/src/messages/m.ts → packages/core/src/compressor/phase.ts",
      "no-circular: packages/core/src/engine/a.ts → packages/core/src/engine/b.ts → packages/core/src/engine/a.ts",
    ]);
  }, 60_000);

  it("fails when a summarizer imports the eval's detectors, and when the eval imports a summarizer's fact finders", async () => {
    const root = tempProject(
      {
        "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }),
        "packages/core/src/summarizers/offline.ts": 'import { pathsIn } from "../eval/detectors/paths.js";\nexport const offline = pathsIn;\n',
        "packages/core/src/compressor/summarize.ts": 'import { lab } from "../lab/index.js";\nexport const summarize = lab;\n',
        "packages/core/src/lab/index.ts": "export const lab = 1;\n",
        "packages/core/src/eval/detectors/paths.ts": "export const pathsIn = 1;\n",
        "packages/core/src/eval/facts.ts": 'import { findPaths } from "../facts/paths.js";\nexport const facts = findPaths;\n',
        "packages/core/src/facts/paths.ts": "export const findPaths = 1;\n",
      },
      "ce-eval-imports-",
    );
    expect((await dependencyViolations(root, ["packages/core/src"])).sort()).toEqual([
      "eval-independent: packages/core/src/eval/facts.ts → packages/core/src/facts/paths.ts",
      "summarizers-ignore-eval: packages/core/src/compressor/summarize.ts → packages/core/src/lab/index.ts",
      "summarizers-ignore-eval: packages/core/src/summarizers/offline.ts → packages/core/src/eval/detectors/paths.ts",
    ]);
  }, 60_000);
});
