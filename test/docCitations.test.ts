/** Code comments cite only documents a user's clone has, and only sections those documents hold. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/cli.js";

/** The folders whose TypeScript is read: every package's sources and tests, the bench and the scripts. */
const ROOTS = ["packages", "plugins", "bench", "scripts", "test", "examples"];
const SKIP = new Set(["node_modules", "dist", "fixtures", "etc"]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

/** Citations of documents that live outside the repository (the project's own spec folder). */
const OUTSIDE = /\bSPEC(?:\.md)?\s*§|\bHERMES\.md\b|(?<![\w/])API\.md\b|(?<![\w/])ARCHITECTURE\.md\b/;
/** `docs/<FILE>.md, "<Section>"`: a cited section of an in-repo document. */
const SECTION = /docs\/([A-Z]+\.md), "([^"]+)"/g;

function headings(file: string): Set<string> {
  const text = readFileSync(join(repoRoot, "docs", file), "utf8");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.trim()));
}

describe("documentation citations", () => {
  const files = ROOTS.filter((root) => existsSync(join(repoRoot, root))).flatMap((root) => sourceFiles(join(repoRoot, root)));
  // this file names the patterns it forbids
  const others = files.filter((file) => !file.endsWith("docCitations.test.ts"));

  it("finds no comment citing SPEC §, HERMES.md or a bare API.md / ARCHITECTURE.md", () => {
    expect(others.length).toBeGreaterThan(100);
    const outside = others.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${relative(repoRoot, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it("cites only sections that the in-repo documents have", () => {
    const cited = others.flatMap((file) => [...readFileSync(file, "utf8").matchAll(SECTION)].map((m) => ({ file: relative(repoRoot, file), doc: m[1]!, section: m[2]! })));
    expect(cited.length).toBeGreaterThan(20);
    const missing = cited.filter(({ doc, section }) => !existsSync(join(repoRoot, "docs", doc)) || !headings(doc).has(section));
    expect(missing).toEqual([]);
  });
});
