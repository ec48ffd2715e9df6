/** Whether an engine's `compress()` answer changed a conversation. */
import { isDeepStrictEqual } from "node:util";
import type { ChatMessage } from "./schema.js";

/**
 * True when `after` (what an engine's `compress()` returned for `before`) is a different conversation:
 * neither the same list nor an equal copy of it (an engine with nothing to drop may answer with a copy).
 */
export function messagesChanged(before: readonly ChatMessage[], after: unknown): boolean {
  return after !== before && !isDeepStrictEqual(after, before);
}
