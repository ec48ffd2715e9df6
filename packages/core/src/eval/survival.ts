/**
 * Whether facts survive in a text (a summary, or everything an engine put in the context):
 * - paths, commands and errors by their normalized key, whitespace collapsed: a path must appear as a
 *   whole token (`a.py` is not found inside `data.py`; a longer absolute path ending in it counts, and
 *   so does an `@` mention of it), or as a member of a brace list read as a shell expands it
 *   (`pkg/cmd/{resume.go, search.go}` names `pkg/cmd/resume.go`; spaces after the commas allowed, one
 *   level, no nesting); a command's first line (60 characters) or an error's first 80 characters as written
 *   (a command also where the text has the `2>&1`/`2>/dev/null` its key leaves out);
 * - a failed exit needs its command and "exit N" on one line;
 * - identifiers as whole words;
 * - an ask when at least {@link ASK_SURVIVAL_SHARE} of its distinctive words (up to 12, see facts.ts)
 *   appear among the text's words: a paraphrase that keeps the substance counts, a bare mention does not.
 * Pure.
 */
import { FACT_KINDS, flatten, wordsOf, type Fact, type FactKind } from "./facts.js";
import { withoutNoiseRedirections } from "./detectors/commands.js";

/** Share of an ask's distinctive words the text must contain for the ask to survive. */
export const ASK_SURVIVAL_SHARE = 0.5;

/** A text prepared once for many survival checks. */
export interface SurvivalText {
  flat: string;
  /** `flat` without the redirections a command's key leaves out (`2>&1`, `2>/dev/null`; see detectors/commands.ts). */
  commands: string;
  /** Lines, each flattened. */
  lines: string[];
  words: Set<string>;
  /** The paths the text's brace lists expand to. */
  braced: string[];
}

/** A brace list in shell notation: a prefix, `{a,b,…}` (one level), a suffix; whitespace ends the token. */
const BRACE_LIST = /([^\s{}`'"(]*)\{([^{}\n]*,[^{}\n]*)\}([^\s{}`'",;)]*)/g;

/** The words `text`'s brace lists expand to (`src/{a,b}.ts` → `src/a.ts`, `src/b.ts`), as a shell expands them. */
export function expandBraceLists(text: string): string[] {
  const out: string[] = [];
  for (const [, prefix = "", members = "", suffix = ""] of text.matchAll(BRACE_LIST)) {
    for (const member of members.split(",")) {
      const name = member.trim();
      if (name !== "" && !/\s/.test(name)) out.push(prefix + name + suffix);
    }
  }
  return out;
}

/** Prepares `text` for {@link factSurvives}. */
export function survivalText(text: string): SurvivalText {
  const flat = flatten(text);
  return { flat, commands: withoutNoiseRedirections(flat), lines: text.split("\n").map(flatten).filter((l) => l !== ""), words: new Set(wordsOf(text)), braced: expandBraceLists(text) };
}

/** True when a brace list of the text expands to `path` or to a longer path ending in it. */
function inBraceList(braced: readonly string[], path: string): boolean {
  return braced.some((word) => {
    const bare = word.replace(/^@/, "").replace(/[.,;:!?]+$/, "");
    return bare === path || bare.endsWith(path.startsWith("/") ? path : `/${path}`);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when `token` occurs in `text` not glued to other path or word characters. */
function containsToken(text: string, token: string, word: boolean): boolean {
  let at = text.indexOf(token);
  if (at === -1) return false;
  const pattern = word ? new RegExp(`(?<![\\w$])${escapeRegExp(token)}(?![\\w$])`) : new RegExp(`(?<![\\w.-]|[\\w.-]@)${escapeRegExp(token)}(?![\\w/-]|\\.\\w)`);
  while (at !== -1) {
    if (pattern.test(text.slice(Math.max(0, at - 2), at + token.length + 2))) return true;
    at = text.indexOf(token, at + 1);
  }
  return false;
}

/** True when `fact` survives in `text` (see the module comment for each kind's rule). */
export function factSurvives(fact: Fact, text: SurvivalText | string): boolean {
  const prepared = typeof text === "string" ? survivalText(text) : text;
  switch (fact.kind) {
    case "path":
      return containsToken(prepared.flat, fact.key, false) || inBraceList(prepared.braced, fact.key);
    case "identifier":
      return containsToken(prepared.flat, fact.key, true);
    case "ask": {
      const words = fact.key.split(" ");
      const found = words.filter((w) => prepared.words.has(w)).length;
      return words.length > 0 && found / words.length >= ASK_SURVIVAL_SHARE;
    }
    case "command":
    case "read":
      return prepared.flat.includes(fact.key) || prepared.commands.includes(fact.key);
    default:
      if (fact.anchor !== undefined) return prepared.lines.some((line) => (line.includes(fact.anchor!) || withoutNoiseRedirections(line).includes(fact.anchor!)) && line.includes(fact.key));
      return prepared.flat.includes(fact.key);
  }
}

/** Facts of one kind and how many survived. */
export interface KindSurvival {
  total: number;
  kept: number;
}

/** Survival per kind (every kind present, zeros when it had no facts). */
export type SurvivalByKind = Record<FactKind, KindSurvival>;

/** An empty tally. */
export function emptySurvival(): SurvivalByKind {
  return Object.fromEntries(FACT_KINDS.map((kind) => [kind, { total: 0, kept: 0 }])) as SurvivalByKind;
}

/** Counts, per kind, the facts of `facts` that survive in `text`; `lost` receives the ones that did not. */
export function survivalByKind(facts: readonly Fact[], text: SurvivalText | string, lost?: Fact[]): SurvivalByKind {
  const prepared = typeof text === "string" ? survivalText(text) : text;
  const tally = emptySurvival();
  for (const fact of facts) {
    const entry = tally[fact.kind];
    entry.total++;
    if (factSurvives(fact, prepared)) entry.kept++;
    else lost?.push(fact);
  }
  return tally;
}

/** Adds `b` into `a` (kind by kind). */
export function addSurvival(a: SurvivalByKind, b: SurvivalByKind): SurvivalByKind {
  for (const kind of FACT_KINDS) {
    a[kind].total += b[kind].total;
    a[kind].kept += b[kind].kept;
  }
  return a;
}

/** kept / total, or undefined when there was nothing to keep. */
export function survivalShare(entry: KindSurvival): number | undefined {
  return entry.total === 0 ? undefined : entry.kept / entry.total;
}
