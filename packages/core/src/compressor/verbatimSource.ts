/**
 * What a summary may legitimately state (docs/BEHAVIOUR.md, "The compression algorithm"): the text of
 * the turns it compacts — content, tool-call names and arguments (raw, and the string values inside
 * JSON arguments, unescaped) — the previous summary it updates, the summary of the turns before them,
 * the head's asks, the latest asks and the focus topic; a summary asked as the conversation's suffix
 * may state anything of the conversation its model read. Brace lists (`src/{a.py, b.py}`, as summaries
 * group files) hold each of their files as a whole path. Searched case-insensitively with whitespace collapsed. Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { contentText } from "../messages/text.js";
import type { SummaryRequest } from "../summarizers/types.js";
import { occurringNeedles } from "./occurringNeedles.js";

/** Text that a summary's facts are looked up in. */
export interface VerbatimSource {
  /** True when `fact` (whitespace collapsed, case ignored) occurs in the source. */
  has(fact: string): boolean;
  /** Looks `facts` up together, in one pass over the source, so that {@link has} answers them from what it found. */
  prepare?(facts: readonly string[]): void;
}

/** A brace list of files as the summaries group them (`src/app/{main.py, models.py}`): a folder, then names. */
export const BRACE_LIST = /((?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)+)\{([^{}\n]+)\}/g;

/** The whole paths `text`'s brace lists name (`src/{a.py, b.py}` → `src/a.py`, `src/b.py`). */
export function braceListPaths(text: string): string[] {
  if (!text.includes("/{")) return []; // every brace list has a folder's slash right before its brace: most texts have none
  return [...text.matchAll(BRACE_LIST)].flatMap((m) => m[2]!.split(",").map((name) => name.trim()).filter((name) => name !== "").map((name) => m[1]! + name));
}

/** `text` lowered with its whitespace runs collapsed to one space and typographic quotes made plain. */
export function comparisonForm(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"').replace(/\s+/g, " ").toLowerCase();
}

/** Every string value inside a JSON text (keys too), so an escaped command reads as written. */
function jsonStrings(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        out.push(key);
        walk(inner);
      }
    }
  };
  walk(parsed);
  return out;
}

/** The texts of one message a summary may quote: its content, and each tool call's name and arguments. */
export function messageSourceTexts(message: ChatMessage): string[] {
  const out = [contentText(message.content)];
  if (message.name !== undefined) out.push(message.name);
  for (const call of message.tool_calls ?? []) {
    out.push(call.function.name, call.function.arguments, ...jsonStrings(call.function.arguments));
  }
  return out;
}

/** The texts of a summary request a summary may state (see the module comment). */
export function requestSourceTexts(request: SummaryRequest): string[] {
  return [
    ...request.messages.flatMap(messageSourceTexts),
    ...(request.conversation?.messages.flatMap(messageSourceTexts) ?? []),
    request.previousSummary ?? "",
    request.precedingSummary ?? "",
    request.focusTopic ?? "",
    ...(request.goalContext ?? []),
    ...(request.recentUserAsks ?? []),
  ]
    .filter((text) => text !== "")
    .flatMap((text) => [text, ...braceListPaths(text)]);
}

/**
 * A source over `texts` (or the texts a function gives, asked for on the first lookup: a summary that
 * states no fact to check costs no pass over the turns), searched in {@link comparisonForm}. Facts given
 * to `prepare` are found in one pass together; any other fact costs a pass of its own.
 */
export function verbatimSource(texts: readonly string[] | (() => readonly string[])): VerbatimSource {
  let joined: string | undefined;
  // One string: the separator keeps a fact from matching across two texts.
  const haystack = (): string => (joined ??= (typeof texts === "function" ? texts() : texts).map(comparisonForm).join("\u0000"));
  const looked = new Set<string>();
  const found = new Set<string>();
  return {
    has: (fact) => {
      const form = comparisonForm(fact);
      return looked.has(form) ? found.has(form) : haystack().includes(form);
    },
    prepare: (facts) => {
      const forms = facts.map(comparisonForm).filter((form) => !looked.has(form));
      if (forms.length === 0) return;
      for (const form of occurringNeedles(haystack(), forms)) found.add(form);
      for (const form of forms) looked.add(form);
    },
  };
}
