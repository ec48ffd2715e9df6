/**
 * A context engine as LangChain 1.x agent middleware (`createAgent({ middleware: [...] })`): before each
 * model call it compresses the agent's messages through the engine when the engine says so, replacing
 * them in the agent's state (as LangChain's own summarization middleware does); after each call it feeds
 * the AI message's `usage_metadata` to the engine; and it registers the engine's tools.
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AIMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { isContextEngine, type ContextEngine } from "@context-engine/core";
import { toBaseMessages } from "./toBaseMessages.js";
import { toChatMessages } from "./toChatMessages.js";
import { engineTools } from "./tools.js";
import { langChainUsageReport } from "./usage.js";

/** LangGraph's id for "remove every message" (`REMOVE_ALL_MESSAGES` of @langchain/langgraph). */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

/** Options of {@link contextEngineMiddleware}: an engine, or a host (`createContextHost`) whose engine is used. */
export type ContextEngineMiddlewareOptions = ({ engine: ContextEngine; host?: undefined } | { host: { engine: ContextEngine }; engine?: undefined }) & {
  /** The middleware's name (default "ContextEngineMiddleware"). */
  name?: string;
  /** The conversation's id, when one engine serves several (passed to `shouldCompress`, `compress`, `updateFromResponse`). */
  sessionId?: string;
  /** Called after each compaction. */
  onCompress?: (event: LangChainCompressionEvent) => void;
};

/** What one compaction did. */
export interface LangChainCompressionEvent {
  messagesBefore: number;
  messagesAfter: number;
  /** The prompt tokens that triggered it (the last reported usage). */
  promptTokens: number;
  /** The engine's compression count after it. */
  compressionCount: number;
}

/** The usage report of the latest AI message in `messages` that carries usage. */
function lastUsage(messages: readonly BaseMessage[]): { prompt_tokens: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (!AIMessage.isInstance(message)) continue;
    const report = langChainUsageReport(message.usage_metadata);
    if (report !== undefined) return report as { prompt_tokens: number };
  }
  return undefined;
}

/** The state update that replaces the agent's messages with `messages`. */
function replaceAll(messages: BaseMessage[]): { messages: BaseMessage[] } {
  return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...messages] };
}

/**
 * Agent middleware that compresses through a context engine, feeds usage back and offers the engine's
 * tools: `createAgent({ model, tools, middleware: [contextEngineMiddleware({ host })] })`. The trigger is the
 * latest answer's `usage_metadata` in the agent's state; an engine holds one conversation unless each
 * middleware names its own `sessionId`.
 */
export function contextEngineMiddleware(options: ContextEngineMiddlewareOptions): AgentMiddleware<undefined, undefined, unknown, StructuredToolInterface[]> {
  const engine = options.host !== undefined ? options.host.engine : options.engine;
  if (!isContextEngine(engine)) throw new TypeError("contextEngineMiddleware: give `engine` (a ContextEngine) or `host` (from createContextHost)");
  const { sessionId } = options;
  const fed = new WeakSet<BaseMessage>();
  return createMiddleware({
    name: options.name ?? "ContextEngineMiddleware",
    tools: engineTools(engine),
    beforeModel: async (state) => {
      // the prompt tokens of this conversation's latest answer, as the agent's state holds it
      const promptTokens = lastUsage(state.messages)?.prompt_tokens;
      if (!engine.shouldCompress(promptTokens, sessionId)) return undefined;
      const chat = toChatMessages(state.messages);
      const session = sessionId !== undefined ? { sessionId } : {};
      const compressed = await engine.compress(chat, promptTokens !== undefined && promptTokens > 0 ? { currentTokens: promptTokens, ...session } : session);
      if (compressed === chat) return undefined;
      const messages = toBaseMessages(compressed);
      options.onCompress?.({ messagesBefore: state.messages.length, messagesAfter: messages.length, promptTokens: promptTokens ?? engine.lastPromptTokens, compressionCount: engine.compressionCount });
      return replaceAll(messages);
    },
    afterModel: (state) => {
      const last = state.messages[state.messages.length - 1];
      if (last === undefined || !AIMessage.isInstance(last) || fed.has(last)) return undefined;
      fed.add(last);
      const report = langChainUsageReport(last.usage_metadata);
      if (report !== undefined) engine.updateFromResponse(report, sessionId);
      return undefined;
    },
  });
}
