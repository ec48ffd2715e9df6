/**
 * Images written into text: a `data:image/…;base64,` URL, or a bare base64 run that starts like a PNG,
 * JPEG, GIF or WebP file (a tool that returns a screenshot as a string). Such a payload is not text: it is
 * shown to the summarizer, put into the deterministic summary and indexed for search as `[image]`.
 * (Image content parts are already read as `[image]` by core's message text.)
 */

/** What stands for an image payload in text, as core's message text writes an image part. */
export const IMAGE_MARKER = "[image]";

/** A base64 data URL of an image, or a bare base64 run of 100+ characters opening with an image file's signature. */
const IMAGE_PAYLOAD = /data:image\/[\w.+-]+;base64,[A-Za-z0-9+/]*={0,2}|(?<![A-Za-z0-9+/])(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)[A-Za-z0-9+/]{90,}={0,2}/g;

/** `text` with every image payload (see the module comment) replaced by {@link IMAGE_MARKER}. */
export function imagesAsMarkers(text: string): string {
  return text.replace(IMAGE_PAYLOAD, IMAGE_MARKER);
}
