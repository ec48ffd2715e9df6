/** The packages' import graph: no cycle, and the core's contract imports only downward (scripts/dependencies.ts). */
import { describe, expect, it } from "vitest";
import { dependencyViolations } from "../scripts/dependencies.js";
import { repoRoot } from "./support/cli.js";
import { tempProject } from "./support/files.js";

describe("the import graph", () => {
  it("has no import cycle in the packages' sources, and the contract never imports the compressor, Codex or summarizers", async () => {
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
});
