/**
 * Code identifiers in text, for the references a kept tail makes back to a removed range: camelCase
 * (`nextToken`), PascalCase with an inner capital (`TokenStream`), snake_case (`parse_header`) and
 * SCREAMING_SNAKE (`MAX_LINES`), at least 5 characters. The eval's own reading. Pure.
 */

const IDENTIFIER = /(?<![\w$])(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w$])/g;

/** The identifiers of `text`, each once, in order. */
export function identifiersIn(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const name = match[0];
    if (name.length >= 5 && !out.includes(name)) out.push(name);
  }
  return out;
}
