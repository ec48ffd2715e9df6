/** File paths named in free text: path-like tokens with a known extension or a folder part. Pure. */

const FILE_EXTENSIONS = new Set(
  "py pyi ts tsx js jsx mjs cjs mts cts rs go java kt kts swift c h cc cpp hpp cs rb php lua pl sh bash zsh fish ps1 md mdx rst txt json jsonc json5 yaml yml toml ini cfg conf env lock xml html htm css scss sass less vue svelte sql graphql proto csv tsv log ipynb dockerfile gradle makefile tf hcl nix zig ex exs erl hs ml scala r dart pony".split(" "),
);
const PATH_TOKEN = /(?<![\w./-])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)*[\w@+-][\w@.+-]*\.([A-Za-z][A-Za-z0-9]{0,9})(?![\w/-])/g;

/** A URL (`scheme://…`), so paths inside it are not taken for file paths. */
export const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]"'`]+/gi;

/**
 * Path-like tokens with a file extension in `text` (URLs excluded, a leading `@` mention sign dropped),
 * in order of appearance, each once (compared case-insensitively).
 */
export function findPaths(text: string): string[] {
  const withoutUrls = text.replace(URL_PATTERN, " ");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const match of withoutUrls.matchAll(PATH_TOKEN)) {
    const token = match[0].replace(/[.]+$/, "").replace(/^@(?=[\w.~/])/, "");
    const extension = (match[1] ?? "").toLowerCase();
    if (!token.includes("/") && !FILE_EXTENSIONS.has(extension)) continue;
    const key = token.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(token);
  }
  return out;
}

/** The comparison form of a path: a leading `./` dropped. */
export function normalizePath(path: string): string {
  return path.trim().replace(/^\.\//, "");
}

/** A token with a folder separator: an optional root (`/`, `~/`, `./`, `../`), then named parts joined by `/`. */
const FOLDER_TOKEN = /(?<![\w./@:-])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)+[\w@.+-]*/g;

/**
 * Folders named in free text (URLs excluded), each once in order of appearance: a token ending in `/`
 * (`pkg/sessionindex/`, `~/.claude/projects/`), or a rooted one of two parts or more without a file
 * extension (`/mnt/c/python/cctrace`, `~/source/compositions`). Relative word pairs (`and/or`,
 * `input/output`) and files ({@link findPaths}) are not folders.
 */
export function findFolders(text: string): string[] {
  const withoutUrls = text.replace(URL_PATTERN, " ");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const match of withoutUrls.matchAll(FOLDER_TOKEN)) {
    const token = match[0].replace(/[.,:;]+$/, "");
    const parts = token.split("/").filter((part) => part !== "" && part !== "~" && part !== "." && part !== "..");
    if (parts.length === 0 || !parts.every((part) => /[A-Za-z]/.test(part))) continue;
    const rooted = /^(?:~|\.{1,2})?\//.test(token);
    const trailing = token.endsWith("/");
    const last = parts.at(-1)!;
    const isFile = !trailing && /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(last) && !last.startsWith(".");
    if (isFile || !(trailing || (rooted && parts.length >= 2))) continue;
    if (seen.has(token)) continue;
    seen.add(token);
    out.push(token);
  }
  return out;
}
