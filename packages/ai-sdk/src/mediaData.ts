/**
 * Media data of AI SDK image and file parts (`string | Uint8Array | ArrayBuffer | Buffer | URL`) as JSON
 * text and back: chat messages must survive `JSON.stringify` (engines such as lcm store them), so
 * binary data travels as base64 and its original kind is remembered to rebuild the same value.
 */

/** What kind of value a part's media data was. */
export type MediaKind = "string" | "url" | "uint8array" | "buffer" | "arraybuffer";

/** Media data as JSON text: a URL, a data URL, or base64 for binary data. */
export interface EncodedMedia {
  kind: MediaKind;
  /** The data as text (strings as they are, a URL's href, binary data as base64). */
  text: string;
}

/** The kind of `data`, or undefined for a value that is no media data. */
function mediaKind(data: unknown): MediaKind | undefined {
  if (typeof data === "string") return "string";
  if (data instanceof URL) return "url";
  if (Buffer.isBuffer(data)) return "buffer";
  if (data instanceof Uint8Array) return "uint8array";
  if (data instanceof ArrayBuffer) return "arraybuffer";
  return undefined;
}

/** `data` as JSON text plus its kind; undefined for a value that is no media data. */
export function encodeMedia(data: unknown): EncodedMedia | undefined {
  const kind = mediaKind(data);
  switch (kind) {
    case "string":
      return { kind, text: data as string };
    case "url":
      return { kind, text: (data as URL).href };
    case "buffer":
    case "uint8array":
      return { kind, text: Buffer.from((data as Uint8Array).buffer, (data as Uint8Array).byteOffset, (data as Uint8Array).byteLength).toString("base64") };
    case "arraybuffer":
      return { kind, text: Buffer.from(data as ArrayBuffer).toString("base64") };
    default:
      return undefined;
  }
}

const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;

/**
 * True when the core importer turns `text` into a data URL (it keeps `http(s):` and `data:` URLs as they
 * are and reads anything else as base64), so the prefix must come off again.
 */
export function wrappedAsDataUrl(text: string): boolean {
  return !/^(https?:|data:)/i.test(text);
}

/**
 * The value a chat message's media text stands for, as the `kind` it had: `wrapped` text loses the data-URL
 * prefix the importer put in front of it first.
 */
export function decodeMedia(kind: MediaKind, text: string, wrapped: boolean): string | URL | Uint8Array | ArrayBuffer | Buffer {
  const raw = wrapped ? text.replace(DATA_URL_PREFIX, "") : text;
  if (kind === "string") return raw;
  if (kind === "url") return new URL(raw);
  const bytes = Buffer.from(raw, "base64");
  if (kind === "buffer") return bytes;
  if (kind === "uint8array") return new Uint8Array(bytes);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** A data URL's media type and base64 payload; undefined for any other text. */
export function parseDataUrl(text: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/is.exec(text);
  return match ? { mediaType: match[1] || "application/octet-stream", base64: match[2]! } : undefined;
}
