/**
 * The dependencies `pnpm build` bundles into a package's dist instead of leaving them as imports, the
 * esbuild plugin that trims them, and the licence notices the bundles then carry. A fresh process that
 * imports `@context-engine/core` otherwise reads zod's ~110 files (64 of them error-message locales) and
 * tapable's CommonJS files one by one; bundled, they are a part of the chunks the core already reads
 * (README, "Performance"). Of gpt-tokenizer the core uses only the o200k split pattern (its vocabulary is
 * data/o200k_base.ranks): bundled, that constant costs no CommonJS load on the first count, and a
 * published core installs no gpt-tokenizer (28 MB).
 *
 * What the bundle leaves out of zod: every locale but English (`z.locales` holds only `en`, the locale zod
 * configures itself with), `z.compile` / `z.withParser` (an ahead-of-time compiler, 92 kB) and
 * `z.fromJSONSchema`; the stubs throw and name the package to import instead. test/bundled-dependencies.test.ts
 * fails when a package's source uses any of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "esbuild";

/** Package folder (relative to the repo) → the dependencies bundled into its dist. */
export const BUNDLED_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  "packages/core": ["zod", "tapable", "gpt-tokenizer"],
};

/** What a left-out zod function says when called through the bundled copy. */
export const LEFT_OUT_MESSAGE = "is not bundled into @context-engine/core: import it from the zod package itself";

const COMPILE_STUB = `const leftOut = (name) => () => { throw new Error(name + " ${LEFT_OUT_MESSAGE}"); };
export const INVALID = Symbol.for("zod.compile.invalid");
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
export const compile = leftOut("z.compile");
export const withParser = leftOut("z.withParser");
export const compileFn = leftOut("compileFn");
`;

const FROM_JSON_SCHEMA_STUB = `export function fromJSONSchema() { throw new Error("z.fromJSONSchema ${LEFT_OUT_MESSAGE}"); }\n`;

/**
 * The esbuild plugin for a package that bundles zod and tapable: zod's locale index becomes English only,
 * its compiler and JSON Schema reader become stubs, and tapable's `require("util")` (CommonJS, which an ES
 * module bundle cannot call) becomes an import of node:util.
 */
export function trimBundledDependencies(packageDir: string): Plugin {
  const zodRoot = dirname(createRequire(join(packageDir, "package.json")).resolve("zod/package.json"));
  const english = join(zodRoot, "v4", "locales", "en.js");
  return {
    name: "trim-bundled-dependencies",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
        importer.startsWith(zodRoot) ? { path: "locales", namespace: "zod-trimmed" } : undefined,
      );
      build.onResolve({ filter: /^\.\/compile\.js$/ }, ({ importer }) =>
        importer.startsWith(zodRoot) ? { path: "compile", namespace: "zod-trimmed" } : undefined,
      );
      build.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, ({ importer }) =>
        importer.startsWith(zodRoot) ? { path: "from-json-schema", namespace: "zod-trimmed" } : undefined,
      );
      build.onResolve({ filter: /^util$/ }, ({ importer }) =>
        /[\\/]tapable[\\/]/.test(importer) ? { path: "util", namespace: "node-util" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "zod-trimmed" }, ({ path }) => ({
        contents: path === "locales" ? `export { default as en } from ${JSON.stringify(english)};\n` : path === "compile" ? COMPILE_STUB : FROM_JSON_SCHEMA_STUB,
        loader: "js",
        resolveDir: zodRoot,
      }));
      build.onLoad({ filter: /.*/, namespace: "node-util" }, () => ({ contents: `export { deprecate } from "node:util";\n`, loader: "js" }));
    },
  };
}

/** The notice file written beside a package's bundles when they carry dependencies' code. */
export const THIRD_PARTY_NOTICE_FILE = "THIRD-PARTY-LICENSES.md";

/**
 * The licence notice of the dependencies bundled into a package: each one's name, version, licence and
 * its own licence file, word for word (the MIT licence asks that copies carry it).
 */
export function thirdPartyNotice(packageDir: string, bundled: readonly string[]): string {
  const require = createRequire(join(packageDir, "package.json"));
  const parts = ["# Third-party code in this package's dist/", "", "The build bundles these packages' code into dist/ (scripts/bundledDependencies.ts in the repository)."];
  for (const name of bundled) {
    const root = dirname(require.resolve(`${name}/package.json`));
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license?: string };
    const licenceFile = readdirSync(root).find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
    if (licenceFile === undefined) throw new Error(`${root}: no licence file to carry into the bundle's notice`);
    parts.push("", `## ${name} ${manifest.version} (${manifest.license ?? "see below"})`, "", "```", readFileSync(join(root, licenceFile), "utf8").trim(), "```");
  }
  return `${parts.join("\n")}\n`;
}
