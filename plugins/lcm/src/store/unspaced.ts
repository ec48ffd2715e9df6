/**
 * Scripts written without spaces between words (CJK ideographs, kana, Thai) or with particles glued to
 * words (Hangul). The word index (unicode61) takes a whole run of such text for one token, so a word
 * inside it is never found; lcm indexes these texts by trigram as well and searches them as substrings.
 */

const UNSPACED = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]/u;

/** True when `text` holds a character of a script written without spaces. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED.test(text);
}

/** The shortest substring the trigram index finds (FTS5's trigram tokenizer matches nothing shorter). */
export const TRIGRAM_MIN_CHARS = 3;
