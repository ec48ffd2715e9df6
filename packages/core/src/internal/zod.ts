/**
 * `@context-engine/core/internal/zod` — `z`, from the zod the core bundles (scripts/bundledDependencies.ts),
 * for the sibling packages: one copy of zod loads in a process that uses several of them. English messages
 * only; zod's compiler and its JSON Schema reader are left out. No compatibility promise.
 */
export { z } from "zod";
