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

/** The distinctive command of `script`, or undefined when it only sets the scene. */
export function distinctiveCommand(script: string): string | undefined {
  const step = scriptSteps(script).find((s) => !SCENERY.test(s));
  if (step === undefined) return undefined;
  const [head] = splitOutsideQuotes(step, /^\|(?!\|)/);
  const cleaned = head!.replace(/\s*\d?>&\d/g, "").replace(/\s*\d?>\s*\/dev\/null/g, "").replace(/\s+/g, " ").trim();
  if (cleaned === "") return undefined;
  return cleaned.length > COMMAND_CHARS ? cleaned.slice(0, COMMAND_CHARS).trimEnd() : cleaned;
}

/** The action a text-format agent (SWE-agent without function calling) wrote: the last fenced block or `<command>` element of its message. */
export function textAction(text: string): string | undefined {
  const blocks = [...text.matchAll(/```[\w-]*\n([\s\S]*?)\n?```|<command>\n?([\s\S]*?)\n?<\/command>/g)].map((m) => [m[0], m[1] ?? m[2]]);
  const last = blocks.at(-1)?.[1]?.trim();
  return last === undefined || last === "" ? undefined : last;
}
