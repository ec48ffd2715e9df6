/**
 * Exact o200k_base token counts (identical to tiktoken), from the vocabulary's compact form (see
 * o200kRanks.ts, made from gpt-tokenizer's, read on first use) and gpt-tokenizer's split pattern (its
 * small constants module, which the build bundles: a published core needs no gpt-tokenizer). The
 * byte-pair merge is our own: gpt-tokenizer's (like js-tiktoken's) rescans the whole piece after every
 * merge, which is quadratic in a piece's length (100,000 repeated letters take seconds), while
 * {@link countPieceTokens} uses a heap and is O(n log n) with the same merge order, so no input needs
 * cutting and every count stays exact.
 */
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { asciiPieceEnd } from "./o200kScan.js";
import { o200kRanks, type O200kRanks } from "./o200kRanks.js";
import { SHORT_PIECE_MAX_CHARS, ShortPieceTable } from "./shortPieceTable.js";

/** The o200k vocabulary as seen by the merge: token bytes (one char per byte, latin1) → rank. */
export interface O200kTables {
  /** Rank of every token, looked up by its bytes as a range of a latin1 string. */
  ranks: O200kRanks;
  /** tiktoken's o200k pre-tokenizer (global, unicode). */
  split: RegExp;
}

let tables: O200kTables | undefined;

/** The o200k tables, loaded on first use from their compact form (a few ms) and shared by the process. */
export function o200kTables(): O200kTables {
  if (tables === undefined) {
    tables = { ranks: o200kRanks(), split: new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "gu") };
  }
  return tables;
}

/** `text`'s UTF-8 bytes, one char per byte; ASCII text is returned as is. */
function latin1Bytes(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, "utf8").toString("latin1");
  }
  return text;
}

/** Pieces counted once and remembered (cleared when full), so repeated words cost one lookup. */
const PIECE_CACHE_ENTRIES = 65_536;
const pieceCache = new Map<string, number>();

/** Counts of short ASCII pieces, learnt as they are met. */
const shortPieces = new ShortPieceTable();

/** Tokens of one piece given as its UTF-8 bytes (one char per byte). */
function pieceTokens(bytes: string, ranks: O200kRanks): number {
  if (ranks.has(bytes)) return 1; // the piece is one token (the common case)
  let count = pieceCache.get(bytes);
  if (count === undefined) {
    count = countPieceTokens(bytes, ranks);
    if (pieceCache.size >= PIECE_CACHE_ENTRIES) pieceCache.clear();
    pieceCache.set(bytes, count);
  }
  return count;
}

/**
 * Exact o200k_base tokens of `text`; special-token strings (`<|endoftext|>`) count as plain text. ASCII
 * pieces are found by {@link asciiPieceEnd} and short ones counted by a typed-array probe; the split
 * regex handles the rest.
 */
export function countO200k(text: string): number {
  if (text.length === 0) return 0;
  const { ranks, split } = o200kTables();
  const short = shortPieces;
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = asciiPieceEnd(text, start);
    if (end === -1) {
      split.lastIndex = start;
      const match = split.exec(text);
      if (match === null || match.index !== start) return total + countBySplit(text, start); // never: every char starts a piece
      total += match[0].length === 1 && match[0].charCodeAt(0) < 0x80 ? 1 : pieceTokens(latin1Bytes(match[0]), ranks);
      start = split.lastIndex;
      continue;
    }
    const length = end - start;
    if (length === 1) {
      total += 1; // every single byte is a token
    } else if (length <= SHORT_PIECE_MAX_CHARS) {
      let count = short.get(text, start, end);
      if (count === -1) {
        count = pieceTokens(text.slice(start, end), ranks);
        short.set(text, start, end, count);
      }
      total += count;
    } else {
      total += pieceTokens(text.slice(start, end), ranks); // ASCII: the chars are the bytes
    }
    start = end;
  }
  return total;
}

/** Tokens of `text` from `from` on, piece by piece through the split regex alone. */
function countBySplit(text: string, from: number): number {
  const { ranks, split } = o200kTables();
  let total = 0;
  split.lastIndex = from;
  for (let match = split.exec(text); match !== null; match = split.exec(text)) total += pieceTokens(latin1Bytes(match[0]), ranks);
  return total;
}

/**
 * The number of o200k pre-tokenizer pieces in `text`, counting no further than `cap`: a lower bound of
 * its token count (every piece is at least one token) that costs a regex scan and no merging.
 */
export function o200kPiecesUpTo(text: string, cap: number): number {
  const { split } = o200kTables();
  let pieces = 0;
  split.lastIndex = 0;
  while (pieces < cap && split.exec(text) !== null) pieces += 1;
  return pieces;
}

/**
 * Tokens of one pre-tokenized piece (`bytes`: its UTF-8 bytes, one char per byte) under tiktoken's
 * byte-pair merge: repeatedly merge the adjacent pair of lowest rank (leftmost on ties) until no pair
 * is a token. Pairs wait in a binary heap keyed by (rank, position); a popped entry whose pair has
 * changed since it was pushed is skipped.
 */
export function countPieceTokens(bytes: string, ranks: O200kRanks): number {
  const n = bytes.length;
  if (n <= 1 || ranks.has(bytes)) return n === 0 ? 0 : 1;
  if (n <= SHORT_PIECE_BYTES) return countShortPiece(bytes, ranks);
  // Parts are linked by their start offsets; next[i] is the start of the part after the one at i.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pairRank = new Float64Array(n); // rank of (part at i + following part), Infinity when none
  const width = n + 1;
  const heap: number[] = [];
  const rankOf = (start: number): number => {
    const mid = next[start]!;
    if (mid >= n) return Infinity;
    return ranks.pairRank(bytes, start, next[mid]!);
  };
  const push = (start: number) => {
    const rank = pairRank[start]!;
    if (rank !== Infinity) heapPush(heap, rank * width + start);
  };
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n; i++) {
    pairRank[i] = rankOf(i);
    push(i);
  }
  let parts = n;
  while (heap.length > 0) {
    const key = heapPop(heap);
    const start = key % width;
    const rank = (key - start) / width;
    if (pairRank[start] !== rank) continue; // stale: the part was merged away or its pair changed
    const absorbed = next[start]!;
    const after = next[absorbed]!;
    next[start] = after;
    if (after < n) prev[after] = start;
    pairRank[absorbed] = Infinity;
    parts -= 1;
    pairRank[start] = rankOf(start);
    push(start);
    const before = prev[start]!;
    if (before >= 0) {
      pairRank[before] = rankOf(before);
      push(before);
    }
  }
  return parts;
}

/** Pieces up to this many bytes merge by a plain scan (no heap or typed arrays to allocate). */
const SHORT_PIECE_BYTES = 24;
const shortStarts: number[] = [];
const shortRanks: number[] = [];

/**
 * The same merge as {@link countPieceTokens} for a short piece: scan for the lowest-rank adjacent pair
 * (leftmost on ties), merge it, update its two neighbours' ranks; quadratic, but n is small.
 */
function countShortPiece(bytes: string, ranks: O200kRanks): number {
  const n = bytes.length;
  const starts = shortStarts; // starts[i] = start of part i; starts[parts] = n
  const pairRanks = shortRanks; // pairRanks[i] = rank of parts i and i+1 merged
  starts.length = 0;
  pairRanks.length = 0;
  for (let i = 0; i <= n; i++) starts.push(i);
  for (let i = 0; i < n - 1; i++) pairRanks.push(ranks.pairRank(bytes, i, i + 2));
  let parts = n;
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pairRanks[i]! < best) {
        best = pairRanks[i]!;
        at = i;
      }
    }
    if (at === -1) return parts;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    parts -= 1;
    // After the merge, part `at` spans starts[at]..starts[at+1]; refresh the pairs that touch it.
    if (at < parts - 1) pairRanks[at] = ranks.pairRank(bytes, starts[at]!, starts[at + 2]!);
    if (at > 0) pairRanks[at - 1] = ranks.pairRank(bytes, starts[at - 1]!, starts[at + 1]!);
  }
}

function heapPush(heap: number[], key: number): void {
  let i = heap.length;
  heap.push(key);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= key) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = key;
}

function heapPop(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  const size = heap.length;
  if (size === 0) return top;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && heap[right]! < heap[left]! ? right : left;
    if (heap[child]! >= last) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = last;
  return top;
}
