/**
 * Token counts of short ASCII pieces (up to {@link SHORT_PIECE_MAX_CHARS} chars) in an open-addressing
 * hash table keyed by the chars' codes, so the hot path of counting — a short word, number or symbol run —
 * is one typed-array probe: no substring, no string hashing, no Map.
 */

/** Longest piece the table keys: 7 chars of 7 bits (+1) fit a double's 53 exact bits. */
export const SHORT_PIECE_MAX_CHARS = 7;
const SLOT_BITS = 18;
const SLOTS = 1 << SLOT_BITS;
const MASK = SLOTS - 1;
/** Most keys held, so probes stay short (a full table just stops learning new pieces). */
const MAX_KEYS = Math.floor(SLOTS * 0.7);

/**
 * Piece → token count for short ASCII pieces. Keys are `Σ (code + 1) · 129^i`, exact in a double and
 * distinct for every string of up to seven ASCII chars; 0 marks an empty slot.
 */
export class ShortPieceTable {
  readonly #keys = new Float64Array(SLOTS);
  readonly #counts = new Uint8Array(SLOTS);
  #size = 0;

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /** The count of `text[from, to)` (ASCII, at most seven chars), or -1 when unknown. */
  get(text: string, from: number, to: number): number {
    const slot = this.#slotOf(text, from, to);
    return this.#keys[slot] === 0 ? -1 : this.#counts[slot]!;
  }

  /** Records `count` for the ASCII `text[from, to)` (at most seven chars) unless the table is full. */
  set(text: string, from: number, to: number, count: number): void {
    const slot = this.#slotOf(text, from, to);
    if (this.#keys[slot] !== 0 || this.#size >= MAX_KEYS) return;
    this.#keys[slot] = this.#key;
    this.#counts[slot] = count;
    this.#size += 1;
  }

  /** Key of the last {@link #slotOf} call. */
  #key = 0;

  /** The slot holding `text[from, to)`, or the empty slot where it would go; sets {@link #key}. */
  #slotOf(text: string, from: number, to: number): number {
    let key = 0;
    let hash = 0x811c9dc5;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      key = key * 129 + code + 1;
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    this.#key = key;
    let slot = (hash ^ (hash >>> SLOT_BITS)) & MASK;
    for (let held = this.#keys[slot]!; held !== key && held !== 0; held = this.#keys[slot]!) slot = (slot + 1) & MASK;
    return slot;
  }
}
