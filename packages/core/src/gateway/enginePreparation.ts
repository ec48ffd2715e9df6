/**
 * Background compaction for callers that hold an engine and a conversation but no session shell (the
 * framework adapters): below the trigger, the engine is asked to prepare the summary off the request path
 * (docs/BEHAVIOUR.md, "Background compaction"). With reported usage the preparation point is a share of
 * the engine's trigger; before any usage, of gateway hygiene's (85 % of the window, on the estimate).
 */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { PreparationStatus } from "../engine/preparation.js";
import type { ChatMessage } from "../messages/schema.js";
import { engineGatewayHygiene } from "./engineHygiene.js";
import { hygieneThresholdTokens } from "./hygiene.js";

/** The conversation's usage, as the caller knows it. */
export interface PreparationUsage {
  sessionId?: string | undefined;
  /** The prompt tokens the conversation's last response reported; undefined before any (hygiene's estimate is used). */
  promptTokens?: number | undefined;
}

/**
 * Lets `engine` prepare the summary of `chat` in the background when usage has passed its preparation
 * point; its status, or undefined for an engine that cannot prepare. Never waits for the summarizer.
 */
export function prepareEngineCompression(engine: ContextEngine, chat: ChatMessage[], usage: PreparationUsage = {}): PreparationStatus | undefined {
  if (engine.prepareCompression === undefined) return undefined;
  const session = usage.sessionId === undefined ? {} : { sessionId: usage.sessionId };
  if (usage.promptTokens !== undefined) return engine.prepareCompression(chat, { ...session, currentTokens: usage.promptTokens });
  const hygiene = engineGatewayHygiene(engine, chat);
  return engine.prepareCompression(chat, { ...session, currentTokens: hygiene.tokens, triggerTokens: hygieneThresholdTokens(engine.contextLength) });
}
