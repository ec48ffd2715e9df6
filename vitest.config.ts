import { defineConfig } from "vitest/config";

// Tests run against the packages' TypeScript sources: the "@context-engine/source" export condition
// points each workspace package at its src/. The CLI and packaging tests run the built dist/ as a user
// would; the global setup rebuilds it first.
const conditions = ["@context-engine/source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@context-engine/source"] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "plugins/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    globalSetup: ["test/support/buildPackages.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
