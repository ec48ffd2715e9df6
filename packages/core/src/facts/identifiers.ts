/** Code identifiers named in text: snake_case, SCREAMING_CASE and camelCase/PascalCase names. Pure. */
import { URL_PATTERN, findPaths } from "./paths.js";

const WORD = /[A-Za-z_$][\w$]*/g;
/** Shortest identifier taken. */
const MIN_IDENTIFIER_CHARS = 4;

/** True for a token that reads as a code name: an inner underscore or a lower-to-upper hump. */
export function isIdentifier(token: string): boolean {
  if (token.length < MIN_IDENTIFIER_CHARS) return false;
  return /[A-Za-z0-9]_[A-Za-z0-9]/.test(token) || /[a-z][A-Z]/.test(token);
}

/** Identifiers in `text` (paths and URLs left out), each once, in order of appearance. */
export function findIdentifiers(text: string): string[] {
  let rest = text.replace(URL_PATTERN, " ");
  for (const path of findPaths(rest)) rest = rest.split(path).join(" ");
  const seen = new Set<string>();
  for (const match of rest.matchAll(WORD)) {
    const token = match[0].replace(/^_+|_+$/g, "");
    if (isIdentifier(token)) seen.add(token);
  }
  return [...seen];
}
