/**
 * The public surface is reviewed: every entry of every published package has a committed API report, and
 * docs/API.md lists what the reports list. Changing an export without `pnpm api` fails here.
 */
import { describe, expect, it } from "vitest";
import { apiDifferences, generateApiFiles, UPDATE_COMMAND } from "../scripts/api/api.js";
import { changelogProblems, listedNames, movedNamesBlock } from "../scripts/api/changelog.js";
import { oneLine } from "../scripts/api/docs.js";
import { manifestEntries } from "../scripts/api/entries.js";
import { repoRoot } from "./support/cli.js";

describe("the API reports", () => {
  it("match the built declarations of every public entry, and docs/API.md matches the reports", () => {
    const problems = apiDifferences(repoRoot, generateApiFiles(repoRoot));
    expect(problems, `the public API changed: run \`${UPDATE_COMMAND}\` and commit the reports`).toEqual([]);
  }, 240_000);

  it("take the entries from package.json exports, skipping package.json itself and patterns", () => {
    const manifest = {
      name: "@scope/pkg",
      exports: {
        ".": { "@context-engine/source": "./src/index.ts", types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./deep/part": { "@context-engine/source": "./src/part.ts", types: "./dist/part.d.ts", import: "./dist/part.js" },
        "./assets/*": { "@context-engine/source": "./src/assets/*.ts", types: "./dist/assets/*.d.ts" },
        "./package.json": "./package.json",
      },
    };
    expect(manifestEntries(manifest, "packages/pkg").map((e) => [e.specifier, e.name, e.source, e.types])).toEqual([
      ["@scope/pkg", "index", "./src/index.ts", "./dist/index.d.ts"],
      ["@scope/pkg/deep/part", "deep-part", "./src/part.ts", "./dist/part.d.ts"],
    ]);
  });

  it("list each name with the first paragraph of its doc comment on one line", () => {
    const comment = "/**\n * Reads a {@link ChatMessage} and {@link Other | the other}.\n * Second line | piped.\n *\n * More detail.\n * @param x the input\n */\n";
    expect(oneLine(comment)).toBe("Reads a `ChatMessage` and the other. Second line \\| piped.");
    expect(oneLine(undefined)).toBe("");
  });
});

describe("the changelog's moved names", () => {
  const homes = new Map([
    ["kept", ["@context-engine/core"]],
    ["moved", ["@context-engine/core/lab"]],
  ]);

  it("lists each name that left the root under the entry that exports it now", () => {
    const block = movedNamesBlock(["kept", "moved"], homes);
    expect(block).toContain("- `moved` moved from `@context-engine/core` to `@context-engine/core/lab`");
    expect(block).not.toContain("`kept`");
    expect(() => movedNamesBlock(["gone"], homes)).toThrow(/no entry exports gone/);
  });

  it("leaves out a name the root still re-exports from another package (zod's z), which no report of ours lists", () => {
    const block = movedNamesBlock(["z", "moved"], homes, new Set(["z", "kept"]));
    expect(listedNames(block)).toEqual(["moved"]);
    expect(() => movedNamesBlock(["z"], homes)).toThrow(/no entry exports z/);
  });

  it("keeps the names an earlier move listed when a later move fills the block again", () => {
    const earlier = movedNamesBlock(["moved"], homes);
    const later = new Map([...homes, ["adapter", ["@context-engine/core/providers"]]]);
    const block = movedNamesBlock(["kept", "adapter", ...listedNames(earlier)], later);
    expect(listedNames(block).sort()).toEqual(["adapter", "moved"]);
    expect(block).toContain("#### To `@context-engine/core/providers`");
  });

  it("flags a line whose entry does not export the name, or whose name is back at the root", () => {
    const text = ["- `moved` moved from `@context-engine/core` to `@context-engine/core/store`", "- `kept` moved from `@context-engine/core` to `@context-engine/core/lab`"].join("\n");
    expect(changelogProblems(text, homes)).toEqual([
      "CHANGELOG.md: `moved` is not exported by @context-engine/core/store",
      "CHANGELOG.md: `kept` is not exported by @context-engine/core/lab",
      "CHANGELOG.md: `kept` is exported by the root again",
    ]);
  });
});
