/**
 * The o200k_base vocabulary in a compact precomputed form, loaded in a few milliseconds: the file
 * `data/o200k_base.ranks` (written by `scripts/o200kRanks.ts` from gpt-tokenizer's copy of OpenAI's
 * vocabulary; its licences: `data/o200k_base.LICENSE.md`) holds a header ("O2KR", then the token count N
 * as a little-endian u32), the open-addressing hash table (2^19 little-endian i32 slots: rank + 1, 0 when
 * empty, FNV-1a of the token's bytes, linear probing), N + 1 little-endian u32 offsets (token r's bytes
 * start at offset r and end at offset r + 1), then the tokens' bytes back to back, in rank order. Loading
 * reads the file and views it in place, nothing rebuilt; a lookup hashes a range of a string's char codes
 * (bytes, one char per byte), so the merge loop allocates no substring.
 */
import { readFileSync } from "node:fs";
import { endianness } from "node:os";
import { packageFileUrl } from "../packageFile.js";

/** The file, in the package's data/ folder. */
export const O200K_RANKS_URL = packageFileUrl("data/o200k_base.ranks");
const MAGIC = "O2KR";
const SLOT_BITS = 19;
const SLOTS = 1 << SLOT_BITS;
const MASK = SLOTS - 1;
/** Magic and token count, then the table, then the offsets. */
const TABLE_AT = 8;
const STARTS_AT = TABLE_AT + SLOTS * 4;

/** The file's bytes for `tokens` (each token's bytes, in rank order). */
export function encodeO200kRanks(tokens: Uint8Array[]): Buffer {
  const size = tokens.reduce((sum, token) => sum + token.length, 0);
  const bytesAt = STARTS_AT + (tokens.length + 1) * 4;
  const out = Buffer.alloc(bytesAt + size);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(tokens.length, 4);
  const starts = new Uint32Array(tokens.length + 1);
  tokens.forEach((token, rank) => {
    if (token.length === 0) throw new Error(`o200k token ${rank} is empty`);
    out.set(token, bytesAt + starts[rank]!);
    starts[rank + 1] = starts[rank]! + token.length;
  });
  const slots = new Int32Array(SLOTS);
  fillSlots(slots, out.subarray(bytesAt), starts);
  starts.forEach((start, i) => out.writeUInt32LE(start, STARTS_AT + i * 4));
  slots.forEach((slot, i) => out.writeInt32LE(slot, TABLE_AT + i * 4));
  return out;
}

/** FNV-1a over `bytes[from, to)`, as {@link hashRange} hashes the same bytes held as chars. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return (hash ^ (hash >>> SLOT_BITS)) & MASK;
}

/** Puts every token's rank + 1 in its slot (the table as the file stores it). */
function fillSlots(slots: Int32Array, bytes: Uint8Array, starts: Uint32Array): void {
  for (let rank = 0; rank < starts.length - 1; rank++) {
    let slot = hashBytes(bytes, starts[rank]!, starts[rank + 1]!);
    while (slots[slot] !== 0) slot = (slot + 1) & MASK;
    slots[slot] = rank + 1;
  }
}

/** `length` little-endian 32-bit values of `file` at `at`, viewed in place (copied when unaligned or on a big-endian machine). */
function int32View<T extends Int32Array | Uint32Array>(file: Buffer, at: number, length: number, kind: new (buffer: ArrayBufferLike, offset?: number, length?: number) => T): T {
  const offset = file.byteOffset + at;
  if (endianness() === "LE" && offset % 4 === 0) return new kind(file.buffer, offset, length);
  const copy = new kind(new ArrayBuffer(length * 4));
  for (let i = 0; i < length; i++) copy[i] = kind === (Int32Array as unknown) ? file.readInt32LE(at + i * 4) : file.readUInt32LE(at + i * 4);
  return copy;
}

/** FNV-1a over `text`'s char codes in [from, to). */
function hashRange(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> SLOT_BITS)) & MASK;
}

/** Token bytes → rank for o200k_base, over typed arrays. */
export class O200kRanks {
  /** Every token's bytes back to back. */
  readonly bytes: Uint8Array;
  /** Token `r` is `bytes[starts[r], starts[r + 1])`. */
  readonly starts: Uint32Array;
  /** Rank + 1 per slot; 0 marks an empty slot. */
  readonly #slots: Int32Array;

  constructor(file: Buffer) {
    if (file.length < STARTS_AT || file.toString("latin1", 0, 4) !== MAGIC) throw new Error(`${O200K_RANKS_URL.pathname}: not an o200k rank file (no ${MAGIC} header, or shorter than its table)`);
    const count = file.readUInt32LE(4);
    const bytesAt = STARTS_AT + (count + 1) * 4;
    if (file.length < bytesAt) throw new Error(`${O200K_RANKS_URL.pathname}: ${file.length} bytes, too short for ${count} token offsets`);
    this.starts = int32View(file, STARTS_AT, count + 1, Uint32Array);
    const expected = bytesAt + this.starts[count]!;
    if (expected !== file.length) throw new Error(`${O200K_RANKS_URL.pathname}: ${file.length} bytes, expected ${expected} for ${count} tokens`);
    this.bytes = file.subarray(bytesAt);
    this.#slots = int32View(file, TABLE_AT, SLOTS, Int32Array);
  }

  /** Number of tokens. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** The rank of the token whose bytes are `text[from, to)` (one char per byte), or -1 when none is. */
  rank(text: string, from: number, to: number): number {
    const length = to - from;
    const bytes = this.bytes;
    for (let slot = hashRange(text, from, to); ; slot = (slot + 1) & MASK) {
      const held = this.#slots[slot]!;
      if (held === 0) return -1;
      const start = this.starts[held - 1]!;
      if (this.starts[held]! - start !== length) continue;
      let i = 0;
      while (i < length && bytes[start + i] === text.charCodeAt(from + i)) i++;
      if (i === length) return held - 1;
    }
  }

  /** {@link rank}, with Infinity for no token (the merge's "no pair"). */
  pairRank(text: string, from: number, to: number): number {
    const rank = this.rank(text, from, to);
    return rank === -1 ? Infinity : rank;
  }

  /** True when all of `text` is one token. */
  has(text: string): boolean {
    return this.rank(text, 0, text.length) !== -1;
  }
}

let loaded: O200kRanks | undefined;

/** The o200k ranks, read from {@link O200K_RANKS_URL} on first use and shared by the process. */
export function o200kRanks(): O200kRanks {
  loaded ??= new O200kRanks(readFileSync(O200K_RANKS_URL));
  return loaded;
}
