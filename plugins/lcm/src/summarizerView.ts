/**
 * A stored message as the summarizer reads it: image payloads written into its text as `[image]` (see
 * imageText.ts) and, in a user turn, the memory-plugin blocks of lcm.summary_skip_tags left out (see
 * skipTags.ts). The stored message is not changed.
 */
import type { ChatMessage } from "./core.js";
import { imagesAsMarkers } from "./imageText.js";
import { withoutBlocks } from "./skipTags.js";

/** `message` as the summarizer reads it (see the module comment); the same object when nothing changes. */
export function summarizerView(message: ChatMessage, skip: RegExp | undefined): ChatMessage {
  const skipHere = message.role === "user" ? skip : undefined;
  const edit = (text: string) => {
    const shown = imagesAsMarkers(text);
    return skipHere === undefined ? shown : withoutBlocks(shown, skipHere);
  };
  const content = message.content;
  if (typeof content === "string") {
    const text = edit(content);
    return text === content ? message : { ...message, content: text };
  }
  if (!Array.isArray(content)) return message;
  let changed = false;
  const parts = content.map((part) => {
    const text = (part as { text?: unknown }).text;
    if (typeof text !== "string") return part;
    const kept = edit(text);
    if (kept === text) return part;
    changed = true;
    return { ...part, text: kept };
  });
  return changed ? { ...message, content: parts } : message;
}
