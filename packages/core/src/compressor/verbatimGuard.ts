/**
 * The verbatim guard (docs/BEHAVIOUR.md, "The compression algorithm"): every path, backticked command,
 * code identifier and quoted ask a summary states must occur in what it summarizes (see
 * verbatimSource.ts). A fact that does not is invented: a list item that states nothing else is
 * removed; anywhere else the fact is replaced by a flag (`[unverified path]`), so the summary never
 * states it and the reader sees something was dropped. Pure.
 */
import { findIdentifiers, isIdentifier } from "../facts/identifiers.js";
import { findPaths } from "../facts/paths.js";
import { EMPTY_SECTION_ITEM } from "../summarizers/prompt.js";
import { BRACE_LIST, type VerbatimSource } from "./verbatimSource.js";

/** What kind of fact a summary states. */
export type VerbatimFactKind = "path" | "command" | "identifier" | "quote";

/** A fact the summary states that its source does not hold. */
export interface InventedFact {
  kind: VerbatimFactKind;
  text: string;
}

/** What the guard did to one summary. */
export interface VerbatimGuardResult {
  /** The summary with invented facts removed or flagged (the input itself when none was found). */
  summary: string;
  /** Facts checked against the source. */
  checked: number;
  /** Invented facts dropped with the list item that stated only them. */
  removed: number;
  /** Invented facts replaced in place by a flag. */
  flagged: number;
  /** Every invented fact, in order. */
  invented: InventedFact[];
}

/** A list item: `- `, `* `, `+ `, `1. `, `1) `. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
/** What a shortened fact is cut with, and the markers a serializer writes into its input: each side is checked on its own. */
const CUT = /…|\.{3,}|\[truncated\]|\[REDACTED\]/gi;
/** A list item with no more than this many words besides its invented facts states only them. */
const MAX_REMAINING_WORDS = 3;
/** Text in double quotes: the opening one after a space, a bracket or a colon, the closing one before a space or punctuation (so `f("a") or f("b")` holds no quote ") or f("). */
const QUOTED = /(?<=^|[\s([:\u2014-])["\u201C](?=\S)([^"\u201C\u201D\n]+?)(?<=\S)["\u201D](?=$|[\s).,;:!?\]\u2014-])/g;
/** A quoted text shorter than this, or of one word, is not taken for a quoted ask. */
const MIN_QUOTE_CHARS = 8;

/** The flag an invented fact of `kind` is replaced with. */
export function verbatimFlag(kind: VerbatimFactKind): string {
  return `[unverified ${kind}]`;
}

/** One fact found on a line: its kind, what to look up, and the characters it spans. */
interface LineFact {
  kind: VerbatimFactKind;
  text: string;
  start: number;
  end: number;
}

/** The sides of `fact`'s cuts (see {@link CUT}) that are looked up, each of two characters or more. */
function factParts(fact: string): string[] {
  return fact
    .split(CUT)
    .map((part) => part.trim())
    .filter((part) => part.length >= 2);
}

/** True when every side of `fact`'s cuts (see {@link CUT}) occurs in `source`. */
export function isVerbatim(fact: string, source: VerbatimSource): boolean {
  return factParts(fact).every((part) => source.has(part));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Blanks `[start, end)` of `text` out with spaces, keeping every other position. */
function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + " ".repeat(end - start) + text.slice(end);
}

/** Occurrences of `token` in `text` standing alone (`before`/`after`: characters that may not touch it). */
function occurrences(text: string, token: string, before: string, after: string): Array<[number, number]> {
  const pattern = new RegExp(`(?<![${before}])${escapeRegExp(token)}(?![${after}])`, "g");
  return [...text.matchAll(pattern)].map((m) => [m.index, m.index + token.length]);
}

/** The kind of a backticked span: a path, an identifier, else a command (or other verbatim text). */
function spanKind(span: string): VerbatimFactKind {
  const paths = findPaths(span);
  if (paths.length === 1 && paths[0] === span.trim()) return "path";
  if (/^[A-Za-z_$][\w$]*$/.test(span.trim()) && isIdentifier(span.trim())) return "identifier";
  return "command";
}

/** True for an identifier checked outside backticks: snake_case, SCREAMING_CASE or lowerCamelCase (PascalCase reads as a proper noun in prose). */
function isCodeName(token: string): boolean {
  return token.includes("_") || /^[a-z$]/.test(token);
}


/**
 * The facts `line` states, in this order, each blanked out before the next kind is looked for:
 * backticked spans (checked whole), quoted asks (two words or more, {@link MIN_QUOTE_CHARS}+
 * characters), the files of brace lists (each checked as its whole path, `src/app/{a.py, b.py}` states
 * `src/app/a.py` and `src/app/b.py`), paths, then code names (see isCodeName).
 */
export function lineFacts(line: string): LineFact[] {
  const facts: LineFact[] = [];
  let rest = line;
  const take = (kind: VerbatimFactKind, text: string, start: number, end: number): void => {
    facts.push({ kind, text, start, end });
    rest = blank(rest, start, end);
  };
  for (const m of line.matchAll(/`([^`\n]+)`/g)) if (m[1]!.trim() !== "") take(spanKind(m[1]!), m[1]!, m.index, m.index + m[0].length);
  for (const m of rest.matchAll(QUOTED)) {
    const inner = m[1]!.trim();
    if (inner.length >= MIN_QUOTE_CHARS && /\s/.test(inner)) take("quote", inner, m.index, m.index + m[0].length);
  }
  for (const m of rest.matchAll(BRACE_LIST)) {
    let at = m.index + m[1]!.length + 1;
    for (const member of m[2]!.split(",")) {
      const name = member.trim();
      const start = at + member.indexOf(name);
      if (name !== "") take("path", m[1]! + name, start, start + name.length);
      at += member.length + 1;
    }
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  for (const path of findPaths(rest)) for (const [start, end] of occurrences(rest, path, "\\w./-", "\\w/-")) take("path", path, start, end);
  for (const name of findIdentifiers(rest).filter(isCodeName)) for (const [start, end] of occurrences(rest, name, "\\w$", "\\w$")) take("identifier", name, start, end);
  return facts.sort((a, b) => a.start - b.start);
}

/** Words with a letter in `text`. */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
}

/** What the guard does with one line. */
interface LineOutcome {
  /** The line to keep, or undefined to drop it. */
  line: string | undefined;
  checked: number;
  invented: LineFact[];
}

function guardLine(line: string, facts: LineFact[], source: VerbatimSource, inFence: boolean): LineOutcome {
  const invented = facts.filter((fact) => !isVerbatim(fact.text, source));
  if (invented.length === 0) return { line, checked: facts.length, invented };
  const listItem = !inFence && LIST_ITEM.test(line);
  if (listItem && invented.length === facts.length) {
    let rest = line.replace(LIST_ITEM, (mark) => " ".repeat(mark.length));
    for (const fact of invented) rest = blank(rest, fact.start, fact.end);
    if (wordCount(rest) <= MAX_REMAINING_WORDS) return { line: undefined, checked: facts.length, invented };
  }
  let out = line;
  for (const fact of [...invented].reverse()) out = out.slice(0, fact.start) + verbatimFlag(fact.kind) + out.slice(fact.end);
  return { line: out, checked: facts.length, invented };
}

/**
 * Checks every fact `summary` states against `source`: a list item whose facts are all invented and
 * that says no more than {@link MAX_REMAINING_WORDS} words besides is removed (a section left empty
 * gets "- (none)"); any other invented fact is replaced by its flag. Headings and code-fence lines are
 * kept as they are.
 */
export function guardVerbatim(summary: string, source: VerbatimSource): VerbatimGuardResult {
  const result: VerbatimGuardResult = { summary, checked: 0, removed: 0, flagged: 0, invented: [] };
  const out: string[] = [];
  let sectionStart = 0;
  let sectionLostItems = false;
  let inFence = false;
  const closeSection = (): void => {
    if (sectionLostItems && out.slice(sectionStart).every((l) => l.trim() === "")) out.splice(sectionStart, 0, EMPTY_SECTION_ITEM);
  };
  const lines = summary.split("\n");
  // every line's facts, looked up in the source together (a heading's or fence's, never checked, cost no more than a needle)
  const factsOf = lines.map(lineFacts);
  source.prepare?.(factsOf.flatMap((facts) => facts.flatMap((fact) => factParts(fact.text))));
  for (const [index, line] of lines.entries()) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      out.push(line);
      continue;
    }
    if (!inFence && /^#{1,6}\s/.test(line)) {
      closeSection();
      out.push(line);
      sectionStart = out.length;
      sectionLostItems = false;
      continue;
    }
    const outcome = guardLine(line, factsOf[index]!, source, inFence);
    result.checked += outcome.checked;
    result.invented.push(...outcome.invented.map(({ kind, text }) => ({ kind, text })));
    if (outcome.line === undefined) {
      result.removed += outcome.invented.length;
      sectionLostItems = true;
    } else {
      result.flagged += outcome.invented.length;
      out.push(outcome.line);
    }
  }
  closeSection();
  if (result.invented.length > 0) result.summary = out.join("\n");
  return result;
}
