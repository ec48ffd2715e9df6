/**
 * Files shipped in the core package beside its code (its package.json, data/): found from the package's
 * folder, which is looked up from wherever this module sits — src/ when run from source, a dist/ bundle or
 * chunk once built — so no module depends on how deep the build puts it.
 */
import { existsSync } from "node:fs";

let root: URL | undefined;

/** The folder holding the core package's package.json: the nearest one above this module. */
function packageRoot(): URL {
  for (let dir = new URL(".", import.meta.url); ; dir = new URL("..", dir)) {
    if (existsSync(new URL("package.json", dir))) return dir;
    if (new URL("..", dir).href === dir.href) throw new Error(`no package.json above ${import.meta.url}`);
  }
}

/** The URL of `path` (such as "data/o200k_base.ranks") relative to the core package's folder. */
export function packageFileUrl(path: string): URL {
  root ??= packageRoot();
  return new URL(path, root);
}
