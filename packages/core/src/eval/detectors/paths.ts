/**
 * File paths written in prose (user asks, the agent's text, commands): tokens with a folder separator
 * and a named last part (`pkg/cmd/resume.go`, `/mnt/c/python/cctrace/README.md`, `~/.claude/projects/`,
 * `../intent`), or a bare file name with a known extension (`hello.py`, `SESSION-PORTABILITY.md`). Not
 * URLs, not `and/or`, dates or fractions, not `@scope/package` names. Prose joins words with slashes
 * too, so some tokens that look like paths are not taken (each seen in the corpus): a rooted single word
 * that is no known folder (`/login`, `/func`: slash commands and grep patterns), a sed substitution
 * (`s/old/new/g`), and an unrooted word list with no file name or trailing slash that has a one-letter
 * part or two capitalized parts (`space/esc/q/enter`, `Gemini/Droid/DeepSeek/Cursor`). A trailing `:12:3`
 * line reference and a leading `./` are dropped, and `@docs/x.md` (Claude Code's file mention) counts as
 * `docs/x.md`.
 * The eval's own reading: it shares no code with the summarizers. Pure.
 */

/** Extensions that make a bare word a file name (from the corpus' languages and docs). */
const EXTENSIONS =
  "py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|rb|java|kt|c|cc|cpp|h|hpp|cs|swift|php|pl|sh|bash|zsh|md|mdx|txt|json|jsonl|yaml|yml|toml|ini|cfg|conf|xml|html|css|scss|sql|db|lock|mod|sum|csv|log|traj|ipynb|env|gitignore|dockerfile";

const CANDIDATE = /(?<![\w@:/.-])@?(?:~|\.{1,2})?\/?[\w.+-]+(?:\/[\w.+@-]*)*/g;
const BARE_FILE = new RegExp(`^[\\w.+-]*[A-Za-z_][\\w+-]*\\.(?:${EXTENSIONS})$`, "i");

/** Top-level folders a rooted single word names (`/tmp`); any other rooted single word is a command or pattern. */
const ROOT_FOLDERS = new Set(["tmp", "etc", "usr", "var", "opt", "home", "mnt", "srv", "root", "bin", "sbin", "lib", "dev", "proc", "sys", "private", "Users", "Volumes", "workspace", "workspaces", "app", "data", "work", "testbed", "repo", "src", "code"]);
/** A sed substitution or transliteration (`s/old/new/g`, `y/abc/xyz/`). */
const SED_EXPRESSION = /^[sy]\/[^/]*\/[^/]*\/[gimpI\d]*$/;

/** The path form compared: no leading `./` or `@`, no trailing punctuation, `:line:col` or `#L12`. */
export function canonicalPath(token: string): string {
  return token
    .replace(/^@(?=[\w.~/])/, "")
    .replace(/[.,;:!?)]+$/, "")
    .replace(/(?::\d+)+$/, "")
    .replace(/#L\d+(?:-L?\d+)?$/, "")
    .replace(/^\.\/(?=.)/, "");
}

/** True when a canonical token is a path. */
export function isPath(token: string): boolean {
  if (token.length < 3 || token.length > 240) return false;
  if (token.includes("/")) {
    const parts = token.split("/").filter((p) => p !== "");
    if (parts.length === 0) return false;
    if (parts.every((p) => /^\d+$/.test(p))) return false; // 06/18, 1/2
    if (!parts.some((p) => /[A-Za-z]/.test(p))) return false;
    if (SED_EXPRESSION.test(token)) return false;
    const rooted = /^(?:~|\.{1,2})?\//.test(token);
    const named = BARE_FILE.test(parts.at(-1)!) || token.endsWith("/");
    // "/login", "/func": a rooted single word is a path only when it names a known top-level folder
    if (/^\/[^/]+$/.test(token) && !named) return ROOT_FOLDERS.has(parts[0]!);
    if (rooted || named) return true;
    // "and/or", "input/output": two plain words need a root, a trailing slash or a file name; longer
    // word lists need lowercase folder-like parts ("src/app/models", not "space/esc/q/enter" or "Size/Mtime/NativePath")
    return parts.length >= 3 && !parts.some((p) => p.length === 1) && parts.filter((p) => /^[A-Z]/.test(p)).length < 2;
  }
  return BARE_FILE.test(token) && !/^\d/.test(token) && !/^(?:e\.g|i\.e|etc|vs|node\.js|next\.js|vue\.js)$/i.test(token);
}

/** The paths in `text`, each once, in order. */
export function pathsIn(text: string): string[] {
  const out: string[] = [];
  const scrubbed = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " "); // URLs
  for (const match of scrubbed.matchAll(CANDIDATE)) {
    const token = canonicalPath(match[0]);
    if (isPath(token) && !out.includes(token)) out.push(token);
  }
  return out;
}
