/** How the SQLite lcm store keeps long texts: deflated, so a store stays near the size of its raw JSON. */
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Texts at least this long are stored deflated (as a BLOB); shorter ones as TEXT. */
export const PACK_MIN_CHARS = 512;

/** A text as stored: TEXT when short, a raw-deflate BLOB when long (SQLite columns take either). */
export function packText(text: string): string | Buffer {
  return text.length >= PACK_MIN_CHARS ? deflateRawSync(text, { level: 1 }) : text;
}

/** The text {@link packText} stored. */
export function unpackText(value: string | Buffer): string {
  return typeof value === "string" ? value : inflateRawSync(value).toString("utf8");
}
