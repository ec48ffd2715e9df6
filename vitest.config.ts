import { defineConfig } from "vitest/config";

// Tests run against the packages' TypeScript sources: the "@context-engine/source" export condition
// points each workspace package at its src/. The CLI and packaging tests run the built dist/ as a user
// would; the global setup rebuilds it first.
const conditions = ["@context-engine/source", "import", "module", "node", "default"];
// Vitest hands the SSR conditions to the test processes as `node --conditions`, where "import" would make
// a CommonJS package's require() of a dual package load its ESM build (pg requiring pg-pool breaks);
// Vite adds "import" or "require" by itself for each import.
const ssrConditions = conditions.filter((condition) => condition !== "import");

// The AI SDK adapter supports ai 6 and 7: its tests run once with `ai` (6) and once more with `ai` and
// `ai/test` resolved to the `ai7` alias (npm:ai@7) in its own sources and tests.
const AI_SDK_TESTS = "packages/ai-sdk/test/**/*.test.ts";

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: ssrConditions, externalConditions: ["@context-engine/source"] } },
  test: {
    exclude: ["**/node_modules/**", "**/dist/**"],
    globalSetup: ["test/support/buildPackages.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "main", include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "plugins/**/*.test.ts", "test/**/*.test.ts"] } },
      { extends: true, resolve: { alias: [{ find: /^ai(\/.*)?$/, replacement: "ai7$1" }] }, test: { name: "ai7", include: [AI_SDK_TESTS] } },
    ],
  },
});
