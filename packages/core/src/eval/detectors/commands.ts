/**
 * The command a shell script stands for, as an agent would need it again: the first step that does
 * something, not the `cd /Users/…/repo &&` before it, an `echo "=== BUILD ==="` banner, a comment or an
 * `export`; with its pipes into `head`/`tail`/`grep` and its `2>&1` cut off, whitespace collapsed and at
 * most {@link COMMAND_CHARS} characters. Written from the corpus (SpecStory sessions start most scripts
 * with `cd <repo>`, Codex CLI runs `sed -n '1,200p' file`). The eval's own reading. Pure.
 */

/** Longest command kept, in characters. */
export const COMMAND_CHARS = 72;

/** Splits `text` on `separators` outside quotes. */
function splitOutsideQuotes(text: string, separators: RegExp): string[] {
  const parts: string[] = [];
  let quote: string | undefined;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === quote && text[i - 1] !== "\\") quote = undefined;
      current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    const match = separators.exec(text.slice(i, i + 2));
    if (match && match.index === 0) {
      parts.push(current);
      current = "";
      i += match[0].length - 1;
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** Steps that only set the scene. */
const SCENERY = /^(cd|pushd|popd|export|set|source|\.|echo|printf|true|clear|sleep|#)(\s|$)/;

/** The steps of a script: lines (backslash continuations joined) split on `&&`, `||` and `;`. */
export function scriptSteps(script: string): string[] {
  const lines = script.replace(/\\\n\s*/g, " ").split("\n");
  return lines.flatMap((line) => splitOutsideQuotes(line, /^(&&|\|\||;)/)).map((step) => step.replace(/\s+/g, " ").trim()).filter((step) => step !== "");
}

/** `text` without the redirections that say nothing about what ran: `2>&1`, `>&2`, `2>/dev/null`. */
export function withoutNoiseRedirections(text: string): string {
  return text.replace(/\s*\d?>&\d/g, "").replace(/\s*\d?>\s*\/dev\/null/g, "");
}

/** The distinctive command of `script`, or undefined when it only sets the scene. */
export function distinctiveCommand(script: string): string | undefined {
  const step = scriptSteps(script).find((s) => !SCENERY.test(s));
  if (step === undefined) return undefined;
  const [head] = splitOutsideQuotes(step, /^\|(?!\|)/);
  const cleaned = withoutNoiseRedirections(head!).replace(/\s+/g, " ").trim();
  if (cleaned === "") return undefined;
  return cleaned.length > COMMAND_CHARS ? cleaned.slice(0, COMMAND_CHARS).trimEnd() : cleaned;
}

/** The action a text-format agent (SWE-agent without function calling) wrote: the last fenced block or `<command>` element of its message. */
export function textAction(text: string): string | undefined {
  const blocks = [...text.matchAll(/```[\w-]*\n([\s\S]*?)\n?```|<command>\n?([\s\S]*?)\n?<\/command>/g)].map((m) => [m[0], m[1] ?? m[2]]);
  const last = blocks.at(-1)?.[1]?.trim();
  return last === undefined || last === "" ? undefined : last;
}

/**
 * Programs whose run only looks: they print files, search results, listings or the repository's state
 * and change nothing (git's reading sub-commands, `sed` without `-i`, `find` without `-delete`/`-exec`).
 * Written from the corpus: Codex CLI reads with `sed -n`, `rg` and `nl`, Claude Code with `ls`, `cat`,
 * `grep`, `git status`, SWE-agent with `open`, `search_dir` and `find_file`.
 */
const READ_PROGRAMS =
  /^(?:cat|bat|nl|head|tail|less|more|grep|egrep|fgrep|rg|ag|ack|ls|ll|tree|wc|file|stat|du|df|pwd|which|whereis|type|realpath|readlink|basename|dirname|echo|printf|env|printenv|uname|whoami|date|ps|jq|yq|diff|cmp|test|\[|open|goto|scroll_up|scroll_down|search_file|search_dir|find_file|view)$/;
/** git's sub-commands that only read the repository. */
const GIT_READS = /^(?:status|show|diff|log|grep|blame|ls-files|ls-tree|rev-parse|describe|shortlog|reflog|remote|branch|tag|config\s+--get)\b/;

/**
 * True when `command` (a distinctive command, see {@link distinctiveCommand}) only reads: a read
 * program, `sed -n`/`awk` without a redirect into a file, `find` without `-delete`/`-exec`, a reading
 * git sub-command, `gh … view|list|diff`. Anything else — a write, build, test, install, move, delete,
 * commit, push or a program run — acts. A redirect into a file (`> out.txt`, `tee`) always acts.
 */
export function isReadCommand(command: string): boolean {
  const step = command.trim().replace(/^(?:sudo|time|env\s+\w+=\S*)\s+/, "").replace(/^(?:\w+=\S*\s+)+/, "");
  if (/(?:^|[^\d&>])>{1,2}\s*(?!\/dev\/null|&)\S/.test(step) || /\|\s*tee\b/.test(step)) return false;
  const [program = "", ...rest] = step.split(" ");
  const args = rest.join(" ");
  if (READ_PROGRAMS.test(program)) return true;
  if (program === "sed") return !/(?:^|\s)-i/.test(args) && !/(?:^|\s)--in-place/.test(args);
  if (program === "awk") return true;
  if (program === "find" || program === "fd") return !/\s?-(?:delete|exec|execdir|ok)\b/.test(` ${args}`);
  if (program === "git") return GIT_READS.test(args.replace(/^(?:-C\s+\S+\s+|--no-pager\s+)+/, "")) && !/^(?:branch|tag|remote)\s+(?:-[dDmM]\b|add|remove|rm|rename|set-url)/.test(args);
  if (program === "gh") return /^\S+\s+(?:view|list|diff|status|checks)\b/.test(args);
  return false;
}

/** Programs whose exit 1 answers "no" (no match, files differ, test false) rather than failing. */
const ANSWERS_NO_WITH_EXIT_1 = /^(?:grep|egrep|fgrep|rg|ag|ack|diff|cmp|test|\[|find|fd|git diff|git grep)\b/;

/** True when exit `code` of `command` is an answer, not an error: `rg` found nothing, `diff` found a difference, `test -f` was false. */
export function exitAnswersNo(command: string, code: number): boolean {
  return code === 1 && ANSWERS_NO_WITH_EXIT_1.test(command.trim().replace(/^(?:sudo|time)\s+/, ""));
}
