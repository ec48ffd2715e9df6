/**
 * The `yaml` library, loaded on first use: a host built from a config object, and a compaction, never
 * read YAML, so importing the package does not load it. Under Node, `import "yaml"` and `require("yaml")`
 * load the same CommonJS build, so documents and nodes are the same classes either way.
 */
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");
let loaded: Yaml | undefined;

/** The `yaml` module, required on the first call and shared. */
export function yamlLibrary(): Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as Yaml;
  return loaded;
}
