/**
 * Background compaction from the session shell (docs/BEHAVIOUR.md, "Background compaction"): while the
 * trigger has not fired, the session lets an engine that can (`prepareCompression`) start the summary of
 * its stored conversation off the request path. A route that compacts on its own server gets none: a
 * local summary could not shrink that thread.
 */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { ToolSchema } from "../engine/types.js";
import type { PreparationStatus } from "../engine/preparation.js";
import type { RouteHooks, ServerThread } from "../host/hooks.js";
import type { ChatMessage } from "../messages/schema.js";

/** What the session asks the engine to prepare: the stored conversation and its usage. */
export interface PreparationRequest {
  engine: ContextEngine;
  routes: RouteHooks;
  serverThread: ServerThread | undefined;
  messages: ChatMessage[];
  sessionId: string;
  /** The prompt tokens the caller gave (default: the engine's last real usage). */
  promptTokens: number | undefined;
  /** The tool definitions the agent's requests send (a summary asked as the conversation's suffix repeats them). */
  tools?: readonly ToolSchema[] | undefined;
}

/**
 * The engine's preparation status after asking it to prepare `request.messages`; undefined when the
 * engine cannot prepare or a route owns the compaction. Never waits for the summarizer.
 */
export function prepareInBackground(request: PreparationRequest): PreparationStatus | undefined {
  const { engine } = request;
  if (engine.prepareCompression === undefined || request.messages.length === 0) return undefined;
  if (request.routes.sessionCompaction.call({ model: engine.model, serverThread: request.serverThread }) !== undefined) return undefined;
  return engine.prepareCompression(request.messages, {
    sessionId: request.sessionId,
    ...(request.promptTokens === undefined ? {} : { currentTokens: request.promptTokens }),
    ...(request.tools === undefined ? {} : { tools: request.tools }),
  });
}
