/**
 * Images older than the newest image turn: after a compaction every image part before the newest user
 * message that carries an image becomes a short text placeholder, so each later request stops
 * re-sending the same large (often base64) images. Pure; touched messages are copied.
 */
import type { ChatMessage, ContentPart } from "../messages/schema.js";
import { IMAGE_PART_TYPES } from "../tokens/rough.js";

/** What an image part older than the newest image turn becomes. */
export const HISTORICAL_IMAGE_PLACEHOLDER = "[Earlier image removed after compaction to save context]";

function isImagePart(part: ContentPart): boolean {
  return IMAGE_PART_TYPES.has(part.type);
}

function hasImage(message: ChatMessage): boolean {
  return Array.isArray(message.content) && message.content.some(isImagePart);
}

/**
 * `messages` with the image parts of every message before the newest image-bearing user message
 * replaced by {@link HISTORICAL_IMAGE_PLACEHOLDER}. The same array when there is nothing older to strip.
 */
export function stripHistoricalImages(messages: ChatMessage[]): ChatMessage[] {
  let anchor = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user" && hasImage(messages[i]!)) {
      anchor = i;
      break;
    }
  }
  if (anchor <= 0) return messages;
  let changed = false;
  const out = messages.map((message, index) => {
    if (index >= anchor || !hasImage(message)) return message;
    changed = true;
    const content = (message.content as ContentPart[]).map((part) => (isImagePart(part) ? { type: "text", text: HISTORICAL_IMAGE_PLACEHOLDER } : part));
    return { ...message, content };
  });
  return changed ? out : messages;
}
