/**
 * lcm owns its store contract and depends on no store driver: `@context-engine/postgres` depends on lcm,
 * never the other way round, so the workspace has no cycle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "peerDependenciesMeta"] as const;

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("lcm's dependencies", () => {
  it("list @context-engine/postgres in no dependency field of package.json", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as Record<string, Record<string, unknown> | undefined>;
    for (const field of DEPENDENCY_FIELDS) expect(Object.keys(manifest[field] ?? {}), field).not.toContain("@context-engine/postgres");
  });

  it("import @context-engine/postgres or packages/postgres from no source or test file", () => {
    const importing = [...sourceFiles(join(PACKAGE_DIR, "src")), ...sourceFiles(join(PACKAGE_DIR, "test"))].filter((file) =>
      /(from|import)\s*\(?\s*["'](@context-engine\/postgres|[./]*packages\/postgres)/.test(readFileSync(file, "utf8")),
    );
    expect(importing).toEqual([]);
  });
});
