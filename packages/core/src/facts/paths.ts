/** File paths named in free text: path-like tokens with a known extension or a folder part. Pure. */

const FILE_EXTENSIONS = new Set(
  "py pyi ts tsx js jsx mjs cjs mts cts rs go java kt kts swift c h cc cpp hpp cs rb php lua pl sh bash zsh fish ps1 md mdx rst txt json jsonc json5 jsonl ndjson yaml yml toml ini cfg conf env lock sum xml html htm css scss sass less vue svelte sql graphql proto csv tsv log db sqlite ipynb dockerfile gradle makefile tf hcl nix zig ex exs erl hs ml scala r dart pony".split(" "),
);
const PATH_TOKEN = /(?<![\w./-])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)*\.?[\w@+-][\w@.+-]*\.([A-Za-z][A-Za-z0-9]{0,9})(?![\w/-])/g;
/** Dotfiles without an extension that projects keep at their root (`.gitignore`, `.env`), alone or at the end of a path. */
const DOTFILE_TOKEN = /(?<![\w./-])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)*\.(?:gitignore|gitattributes|gitmodules|env|envrc|npmrc|nvmrc|bashrc|zshrc|profile|dockerignore|editorconfig|prettierrc|eslintrc)(?![\w./-])/g;

/** A URL (`scheme://…`), so paths inside it are not taken for file paths. */
export const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]"'`]+/gi;

/** `text` with each URL replaced by a space (the pattern, which tries a scheme at every word, runs only when a "://" is there). */
function withoutUrlsOf(text: string): string {
  return text.includes("://") ? text.replace(URL_PATTERN, " ") : text;
}

/**
 * Path-like tokens with a file extension in `text` (URLs excluded, a leading `@` mention sign dropped),
 * in order of appearance, each once (compared case-insensitively).
 */
export function findPaths(text: string): string[] {
  const withoutUrls = withoutUrlsOf(text);
  const seen = new Set<string>();
  const out: string[] = [];
  const matches = [...withoutUrls.matchAll(PATH_TOKEN), ...withoutUrls.matchAll(DOTFILE_TOKEN)].sort((a, b) => a.index - b.index);
  for (const match of matches) {
    const token = match[0].replace(/[.]+$/, "").replace(/^@(?=[\w.~/])/, "");
    const extension = (match[1] ?? "").toLowerCase();
    if (match[1] !== undefined && !token.includes("/") && !FILE_EXTENSIONS.has(extension)) continue;
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

/** A folder of one part under the home folder or the root (`~/.claude`, `/tmp`): checked against {@link WELL_KNOWN_ROOTS} for the root. */
const SHORT_ROOTED_TOKEN = /(?<![\w./@:-])(?:~\/|\/)[\w@.+-]*[\w@+-](?![\w/@-]|\.[\w/])/g;
/** Top folders of a Unix system that a bare `/name` means (`/tmp`), unlike a slash command (`/compress`). */
const WELL_KNOWN_ROOTS = /^\/(?:tmp|etc|usr|var|opt|home|mnt|srv|root|private|Users|workspace|app|dev)$/;

/**
 * Folders named in free text (URLs excluded), each once in order of appearance: a token ending in `/`
 * (`pkg/sessionindex/`, `~/.claude/projects/`), a rooted one of two parts or more without a file
 * extension (`/mnt/c/python/cctrace`, `~/source/compositions`), or one part under the home folder
 * (`~/.claude`) or a well-known root (`/tmp`). Relative word pairs (`and/or`,
 * `input/output`) and files ({@link findPaths}) are not folders.
 */
export function findFolders(text: string): string[] {
  if (!text.includes("/")) return [];
  const withoutUrls = withoutUrlsOf(text);
  const seen = new Set<string>();
  const out: string[] = [];
  const matches = [...withoutUrls.matchAll(FOLDER_TOKEN), ...withoutUrls.matchAll(SHORT_ROOTED_TOKEN)].sort((a, b) => a.index - b.index);
  for (const match of matches) {
    const token = match[0].replace(/[.,:;]+$/, "");
    const parts = token.split("/").filter((part) => part !== "" && part !== "~" && part !== "." && part !== "..");
    if (parts.length === 0 || !parts.every((part) => /[A-Za-z]/.test(part))) continue;
    const rooted = /^(?:~|\.{1,2})?\//.test(token);
    const trailing = token.endsWith("/");
    const isFile = !trailing && findPaths(token).includes(token);
    const knownRoot = parts.length === 1 && (token.startsWith("~/") || WELL_KNOWN_ROOTS.test(token));
    if (isFile || !(trailing || (rooted && (parts.length >= 2 || knownRoot)))) continue;
    if (seen.has(token)) continue;
    seen.add(token);
    out.push(token);
  }
  return out;
}
