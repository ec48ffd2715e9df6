/** The package manifests: what the workspace resolves and what gets published stay the same map. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";
import { PUBLISHED_PACKAGES } from "./project.js";

type Conditions = Record<string, string>;
interface Manifest {
  exports: Record<string, string | Conditions>;
  publishConfig: { exports: Record<string, string | Conditions> };
  files: string[];
}

const SOURCE_CONDITION = "@context-engine/source";

describe("package manifests", () => {
  for (const [name, folder] of Object.entries(PUBLISHED_PACKAGES)) {
    it(`publishes ${name} with the workspace's exports minus the source condition, whose files exist`, () => {
      const manifest = JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as Manifest;
      const published = Object.fromEntries(
        Object.entries(manifest.exports).map(([sub, target]) => [sub, typeof target === "string" ? target : Object.fromEntries(Object.entries(target).filter(([c]) => c !== SOURCE_CONDITION))]),
      );
      expect(manifest.publishConfig.exports).toEqual(published);
      for (const target of Object.values(manifest.exports)) {
        if (typeof target === "string") continue;
        expect(Object.keys(target)[0]).toBe(SOURCE_CONDITION);
        expect(existsSync(join(repoRoot, folder, target[SOURCE_CONDITION]!)), target[SOURCE_CONDITION]).toBe(true);
      }
      expect(manifest.files).toEqual(expect.arrayContaining(["dist", "README.md", "LICENSE"]));
    });
  }
});
