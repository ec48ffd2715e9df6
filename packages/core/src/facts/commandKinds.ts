/**
 * What a shell command does, read from its text: whether it acts (writes, builds, tests, installs,
 * moves, deletes, commits, lints, formats: anything but looking) or only reads (`cat`, `grep`, `ls`,
 * `git status`), and whether a non-zero exit of it is an answer rather than a failure — a search that
 * found nothing, a test that was false, files that differ. The summarizers' fact code; the eval keeps
 * its own. Pure.
 */

/** One step of a script: its pipeline's segments, each as words (quotes removed, redirections apart). */
interface Segment {
  words: string[];
  /** Output redirected to a file (`> out.txt`, `>> log`; not `2>&1` or `/dev/null`). */
  writes: boolean;
}

/**
 * The steps of `script` (split at `&&`, `||`, `;` and line ends outside quotes), each a pipeline of
 * segments (split at `|`). Quotes group words; a backslash escapes the next character.
 */
export function scriptSteps(script: string): Segment[][] {
  const steps: Segment[][] = [];
  let segments: Segment[] = [];
  let words: string[] = [];
  let word = "";
  let quoted = false;
  let redirect: string | undefined;
  let writes = false;
  const endWord = () => {
    if (word === "" && !quoted) return;
    if (redirect !== undefined) {
      if (!/^&\d?$|^\/dev\/null$/.test(word)) writes = writes || redirect.includes(">");
      redirect = undefined;
    } else words.push(word);
    word = "";
    quoted = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) segments.push({ words, writes });
    words = [];
    writes = false;
  };
  const endStep = () => {
    endSegment();
    if (segments.length > 0) steps.push(segments);
    segments = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    const next = script[i + 1];
    if (c === "'" || c === '"') {
      const close = script.indexOf(c, i + 1);
      const end = close === -1 ? script.length : close;
      word += script.slice(i + 1, end);
      quoted = true;
      i = end;
    } else if (c === "\\" && next !== undefined) {
      if (next !== "\n") word += next;
      i++;
    } else if ((c === "&" && next === "&") || (c === "|" && next === "|")) {
      endStep();
      i++;
    } else if (c === ";" || c === "\n") endStep();
    else if (c === "|") endSegment();
    else if (c === ">" || c === "<") {
      // `2>&1`, `>>`, `<<EOF`: the descriptor digit and the operator are not words
      if (/^\d$/.test(word)) word = "";
      endWord();
      redirect = (redirect ?? "") + c;
      while (script[i + 1] === ">" || script[i + 1] === "<") redirect += script[++i];
      if (script[i + 1] === "&") {
        redirect = undefined;
        i++;
        while (/\d|-/.test(script[i + 1] ?? "")) i++;
      }
    } else if (/\s/.test(c)) endWord();
    else word += c;
  }
  endStep();
  return steps;
}

/** Steps that only set the scene or print a banner: neither acting nor reading. */
const SCENERY = /^(?:cd|pushd|popd|export|source|\.|set|unset|echo|printf|true|false|sleep|clear|:|alias|ulimit|umask)$/;
/** Programs that only look: at files, listings, the environment, the repository's state. */
const READER = /^(?:cat|head|tail|less|more|bat|nl|sed|awk|gawk|grep|egrep|fgrep|zgrep|rg|ag|ack|find|fd|locate|ls|ll|tree|wc|jq|yq|xq|file|stat|pwd|which|whereis|type|command|env|printenv|ps|pgrep|top|htop|du|df|free|date|whoami|id|uname|hostname|realpath|readlink|dirname|basename|sort|uniq|cut|tr|column|xxd|hexdump|od|strings|diff|cmp|comm|test|\[|\[\[|history|lsof|curl|wget|man|help|md5sum|sha256sum|shasum|nproc|lscpu|tput)$/;
/** git sub-commands that only look. */
const GIT_READER = /^(?:status|diff|show|log|blame|grep|ls-files|ls-tree|rev-parse|describe|shortlog|reflog|cat-file|whatchanged)$/;
/** Wrappers whose next word is the real program. */
const WRAPPER = /^(?:sudo|time|timeout|nice|nohup|env|exec|xargs|builtin)$/;

/** The program of a segment and the words after it, wrappers (`sudo`, `timeout 10`, `env X=1`) skipped. */
function programOf(words: readonly string[]): { program: string; args: string[] } | undefined {
  let at = 0;
  while (at < words.length) {
    const word = words[at]!;
    if (/^\w+=/.test(word)) at++;
    else if (WRAPPER.test(word) && at + 1 < words.length) {
      at++;
      // a wrapper's own options and timeout values
      while (at < words.length - 1 && (/^-/.test(words[at]!) || /^\d+[smh]?$/.test(words[at]!))) at++;
    } else break;
  }
  if (at >= words.length) return undefined;
  return { program: words[at]!.split("/").pop()!, args: words.slice(at + 1) };
}

/** True when the segment only looks (see {@link READER}, {@link GIT_READER}), writing nothing. */
function readsOnly(segment: Segment): boolean {
  if (segment.writes) return false;
  const found = programOf(segment.words);
  if (found === undefined) return true;
  const { program, args } = found;
  if (SCENERY.test(program)) return true;
  if (program === "git") {
    const sub = args.find((arg) => !arg.startsWith("-"));
    if (sub === "branch" || sub === "tag" || sub === "remote" || sub === "config") return args.filter((arg) => !arg.startsWith("-")).length <= 1 || args.includes("-v") || args.includes("--list");
    if (sub === "stash") return args.includes("list") || args.includes("show");
    return sub !== undefined && GIT_READER.test(sub);
  }
  if (program === "sed") return !args.some((arg) => /^-[^-]*i/.test(arg) || arg === "--in-place");
  if (program === "find" || program === "fd") return !args.some((arg) => /^-(?:delete|exec|execdir|ok|fprint)/.test(arg) || arg === "-x" || arg === "-X");
  if (program === "curl") return !args.some((arg) => /^-(?:X|d|F|T|o|O)$|^--(?:data|request|form|upload-file|output)/.test(arg));
  if (program === "wget") return false;
  // a database shell running a query that only looks: `sqlite3 app.db "SELECT …"`, `psql -c '\dt'`
  if (/^(?:sqlite3|psql|mysql)$/.test(program)) return args.length > 0 && /^\s*(?:SELECT|PRAGMA|EXPLAIN|SHOW|DESCRIBE|\.tables|\.schema|\\d)/i.test(args[args.length - 1]!);
  return READER.test(program);
}

/**
 * True when `command` only reads: every step of it looks (at files, listings, the environment, the
 * repository's state) or sets the scene, and nothing is written (`> file`, `sed -i`, `find -delete`).
 * Anything else acts: it writes, builds, tests, installs, moves, deletes, commits, lints or formats.
 */
export function isReadOnlyCommand(command: string): boolean {
  return scriptSteps(command).every((step) => step.every(readsOnly));
}

/** Programs that pass text on and exit 0 whatever it holds: a pipeline's exit is the step before them (under pipefail). */
const PLUMBING = /^(?:head|tail|sort|uniq|wc|cut|tr|cat|less|more|column|nl|tee|awk|sed)$/;
/** Searches: exit 1 means they found nothing. */
const SEARCHER = /^(?:grep|egrep|fgrep|zgrep|rg|ag|ack|find|fd|locate|which|whereis|type|pgrep)$/;

/**
 * What a command's exit status of 1 answers when it is an answer, not a failure: `"no match"` for a
 * search (`grep`, `rg`, `ag`, `find`, `which`, `git grep`, `command -v`), `"false"` for a test
 * (`test -f x`, `[ -f x ]`, `[[ … ]]`), `"differ"` for a comparison (`diff`, `cmp`, `git diff
 * --exit-code`/`--quiet`). The last step decides (its pipeline's last segment that is not plumbing such
 * as `| head`; a trailing `echo` is passed over); undefined for any other exit or command. `ls` of a missing path is not one: it exits
 * non-zero with a complaint naming the path, an error worth keeping.
 */
export function answerOfExit(command: string, exit: number | undefined): string | undefined {
  if (exit !== 1) return undefined;
  const steps = scriptSteps(command);
  // a step that only prints (`grep -q x f && echo found`) did not run when the exit is 1: the step before decides
  let at = steps.length - 1;
  while (at > 0 && steps[at]!.every((segment) => /^(?:echo|printf|true|:)$/.test(programOf(segment.words)?.program ?? ""))) at--;
  const last = steps[at];
  if (last === undefined) return undefined;
  const deciding = [...last].reverse().find((segment, i, all) => i === all.length - 1 || !PLUMBING.test(programOf(segment.words)?.program ?? ""));
  const found = deciding === undefined ? undefined : programOf(deciding.words);
  if (found === undefined) return undefined;
  const { program, args } = found;
  if (SEARCHER.test(program)) return "no match";
  if (program === "command" && args[0] === "-v") return "no match";
  if (program === "test" || program === "[" || program === "[[") return "false";
  if (program === "diff" || program === "cmp") return "differ";
  if (program === "git") {
    const sub = args.find((arg) => !arg.startsWith("-"));
    if (sub === "grep") return "no match";
    if (sub === "diff" && args.some((arg) => arg === "--exit-code" || arg === "--quiet" || arg === "--no-index")) return "differ";
  }
  return undefined;
}
