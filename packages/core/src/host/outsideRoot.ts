/** Plugin folders that a symlink leads out of the project root: their code runs, so the host says so. */
import { lstatSync, realpathSync } from "node:fs";
import { relative, isAbsolute } from "node:path";

/**
 * When `dir` (inside `rootDir` by its path) really lies outside `rootDir` because a symlink leads out,
 * the sentence saying so, naming the path and its real target; undefined when it stays inside.
 */
export function symlinkOutsideRoot(dir: string, rootDir: string): string | undefined {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(dir);
    realRoot = realpathSync(rootDir);
  } catch {
    return undefined;
  }
  const rel = relative(realRoot, real);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) return undefined;
  const how = lstatSync(dir).isSymbolicLink() ? "is a symlink to" : "leads through a symlink to";
  return `${dir} ${how} ${real}, outside ${realRoot}; its code runs with the host's rights`;
}
