/**
 * The core's dist carries zod, tapable and gpt-tokenizer's split pattern inside its bundles
 * (scripts/bundledDependencies.ts), with their licences: the sibling packages share that one zod, and
 * what the bundle leaves out of zod is used by no package and says so when called. That a fresh process
 * reads none of their files is checked with the rest of its call path in test/lazy-imports.test.ts.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, userEnv } from "./support/cli.js";
import { BUNDLED_DEPENDENCIES, THIRD_PARTY_NOTICE_FILE } from "../scripts/bundledDependencies.js";
import { SOURCE_FOLDERS } from "../scripts/dependencies.js";

/** Runs an ES module script with the built packages (no source condition) in `cwd`; returns its stdout. */
function runBuilt(script: string, cwd = repoRoot): Promise<string> {
  return new Promise((done, fail) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd, env: userEnv(), timeout: 60_000 }, (error, stdout, stderr) => (error ? fail(new Error(stderr)) : done(stdout)));
  });
}

/** Every .ts file under `dir`, as paths relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => relative(repoRoot, join(repoRoot, dir, file)));
}

describe("zod, tapable and gpt-tokenizer's split pattern bundled into the core", () => {
  it("leaves no import of zod, tapable or gpt-tokenizer in the core's built JavaScript", () => {
    const dist = join(repoRoot, "packages/core/dist");
    const importing = readdirSync(dist, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .filter((file) => /from\s*"(zod|tapable|gpt-tokenizer)(\/[^"]*)?"|(import|require)\("(zod|tapable|gpt-tokenizer)/.test(readFileSync(join(dist, file), "utf8")));
    expect(importing).toEqual([]);
  });

  it("ships each bundled package's licence, word for word, beside the bundles", () => {
    const notice = readFileSync(join(repoRoot, "packages/core/dist", THIRD_PARTY_NOTICE_FILE), "utf8");
    for (const name of BUNDLED_DEPENDENCIES["packages/core"]!) {
      const licence = readFileSync(join(repoRoot, "packages/core/node_modules", name, readdirSync(join(repoRoot, "packages/core/node_modules", name)).find((file) => /^licen[cs]e/i.test(file))!), "utf8");
      expect(notice, name).toContain(`## ${name} `);
      expect(notice, name).toContain(licence.trim());
    }
  });

  it("publishes a core that needs no gpt-tokenizer: only its tests do", () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, "packages/core/package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).not.toContain("gpt-tokenizer");
    expect(Object.keys(manifest.devDependencies)).toContain("gpt-tokenizer");
  });

  it("gives the sibling packages and plugin authors the core's zod: its schemas parse and print English messages", async () => {
    const out = await runBuilt(`const { z } = await import("@context-engine/core");
const result = z.object({ limit: z.number().int() }).safeParse({ limit: "ten" });
console.log(JSON.stringify({ ok: result.success, message: z.prettifyError(result.error), locales: Object.keys(z.locales) }));`);
    const printed = JSON.parse(out) as { ok: boolean; message: string; locales: string[] };
    expect(printed.ok).toBe(false);
    expect(printed.message).toContain("Invalid input: expected number, received string");
    expect(printed.message).toContain("→ at limit");
    expect(printed.locales).toEqual(["en"]);
  });

  it("turns a schema made with the zod package itself into a tool schema (a plugin author's own zod; run where zod is installed)", async () => {
    const out = await runBuilt(`const { z } = await import("zod");
const { zodToolSchema } = await import("@context-engine/core/internal");
console.log(JSON.stringify(zodToolSchema("find", "Finds.", z.object({ query: z.string().min(1), limit: z.number().optional() })).function.parameters));`, join(repoRoot, "packages/ai-sdk"));
    expect(JSON.parse(out)).toMatchObject({ type: "object", properties: { query: { type: "string", minLength: 1 }, limit: { type: "number" } }, required: ["query"] });
  });

  it("says which package to import when a left-out zod function is called", async () => {
    const out = await runBuilt(`const { z } = await import("@context-engine/core");
for (const call of [() => z.fromJSONSchema({ type: "string" }), () => z.compile(z.string())]) { try { call(); console.log("no error"); } catch (error) { console.log(error.message); } }`);
    expect(out.trim().split("\n")).toEqual([
      "z.fromJSONSchema is not bundled into @context-engine/core: import it from the zod package itself",
      "z.compile is not bundled into @context-engine/core: import it from the zod package itself",
    ]);
  });

  it("finds no package source that uses what the bundle leaves out of zod, or imports zod other than through the core", () => {
    const offending: string[] = [];
    for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
      const text = readFileSync(join(repoRoot, file), "utf8");
      if (/\bz\.(compile|withParser|fromJSONSchema|locales)\b/.test(text)) offending.push(`${file}: uses a left-out zod function`);
      if (!file.startsWith("packages/core/") && /from "zod(\/[^"]*)?"/.test(text)) offending.push(`${file}: imports zod, not z from @context-engine/core`);
    }
    expect(offending).toEqual([]);
  });
});
