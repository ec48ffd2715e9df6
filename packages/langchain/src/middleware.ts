/**
 * A context engine as LangChain 1.x agent middleware (`createAgent({ middleware: [...] })`): before each
 * model call it compresses the agent's messages through the engine when the engine says so, replacing
 * them in the agent's state (as LangChain's own summarization middleware does); after each call it feeds
 * the AI message's `usage_metadata` to the engine; and it registers the engine's tools. While no answer in
 * the state reports usage (a resumed stored session, say), gateway session hygiene judges the messages by
 * their rough estimate and compresses a conversation already past 85 % of the window. A request whose
 * estimate (the latest usage plus the messages since) crosses the window less the output reserve is
 * compacted first, whatever the trigger says.
 */
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AIMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { isContextEngine, type ChatMessage, type CompressOptions, type ContextEngine } from "@context-engine/core";
import { engineCount, engineRequestLimit, lastCompactionOf, messagesChanged, noticeSince, promptTokensOf, requestedCompression, toolCallContext } from "@context-engine/core/internal";
import { noticeUpdate, type PendingNotice } from "./notice.js";
import { engineGatewayHygiene, estimateRequestTokens, prepareEngineCompression, takeCompactionRequest } from "@context-engine/core/session";
import { toBaseMessages } from "./toBaseMessages.js";
import { toChatMessages } from "./toChatMessages.js";
import { engineTools } from "./tools.js";
import { langChainUsageReport } from "./usage.js";

/** LangGraph's id for "remove every message" (`REMOVE_ALL_MESSAGES` of @langchain/langgraph). */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

/** Options of {@link contextEngineMiddleware}: an engine, or a host (`createContextHost`) whose engine is used. */
export type ContextEngineMiddlewareOptions = ({ engine: ContextEngine; host?: undefined } | { host: ContextEngineMiddlewareHost; engine?: undefined }) & {
  /** The middleware's name (default "ContextEngineMiddleware"). */
  name?: string;
  /** The conversation's id, when one engine serves several (passed to `shouldCompress`, `compress`, `updateFromResponse`). */
  sessionId?: string;
  /** Whose conversation it is (a tenant or user id; default the host's): the engine's tools answer from this scope's sessions only. */
  scope?: string;
  /** Called after each compaction that changed the messages (not when the engine answered with them as they were). */
  onCompress?: (event: LangChainCompressionEvent) => void;
  /** Overrides the host's `compression.compaction_notice`: after a compaction, append a one-line notice to the next human message (default off). */
  compactionNotice?: boolean;
};

/** What the middleware reads of a host (`createContextHost`'s fits): its engine, scope and the notice setting. */
export interface ContextEngineMiddlewareHost {
  engine: ContextEngine;
  scope?: string;
  config?: { compression?: { compaction_notice?: boolean } };
}

/** What one compaction did. */
export interface LangChainCompressionEvent {
  messagesBefore: number;
  messagesAfter: number;
  /** The prompt tokens that triggered it: the last reported usage, or for `trigger: "hygiene"` the rough estimate of the messages. */
  promptTokens: number;
  /** The engine's compression count after it. */
  compressionCount: number;
  /**
   * What triggered it: `usage`, the engine's threshold on the latest reported usage; `hygiene`, gateway
   * session hygiene (85 % of the window) on the estimate of a conversation with no reported usage yet;
   * `agent`, the model's `compact_context` call before this model call; `overflow`, the request's estimate
   * (the latest reported usage plus the messages since) crossed the window less the output reserve.
   */
  trigger: "usage" | "hygiene" | "agent" | "overflow";
}

/** The usage report of the latest AI message in `messages` that carries usage, with that message and its index. */
function lastUsageAt(messages: readonly BaseMessage[]): { prompt_tokens: number; index: number; message: BaseMessage } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (!AIMessage.isInstance(message)) continue;
    const report = langChainUsageReport(message.usage_metadata);
    if (report !== undefined) return { prompt_tokens: (report as { prompt_tokens: number }).prompt_tokens, index: i, message };
  }
  return undefined;
}

/** The usage report of the latest AI message in `messages` that carries usage. */
function lastUsage(messages: readonly BaseMessage[]): { prompt_tokens: number } | undefined {
  return lastUsageAt(messages);
}

/**
 * The estimate of sending `messages` as `chat` (docs/BEHAVIOUR.md, "No request over the window"): the
 * latest answer's reported prompt tokens cover the messages before it, the ones after are counted; an
 * answer whose usage described the conversation before the last compaction (`stale`) counts for nothing.
 */
function outgoingEstimate(engine: ContextEngine, messages: BaseMessage[], chat: ChatMessage[], stale: BaseMessage | undefined): number {
  const usage = lastUsageAt(messages);
  const fresh = usage !== undefined && usage.message !== stale ? usage : undefined;
  const covered = fresh === undefined ? undefined : toChatMessages(messages.slice(0, fresh.index)).length;
  return estimateRequestTokens(chat, { lastPromptTokens: fresh?.prompt_tokens, reportedMessages: covered }, engineCount(engine)).tokens;
}

/** What makes the middleware compress: the engine's chat messages, the token count to give it (if known) and what to report. */
interface CompressionTrigger {
  chat: ChatMessage[];
  /** `currentTokens` for `compress`: the hygiene estimate or the state's reported usage (absent when the state has none). */
  currentTokens: number | undefined;
  /** The event's `promptTokens`. */
  promptTokens: number;
  trigger: LangChainCompressionEvent["trigger"];
  /** The agent's request as compress() options (`force`, its focus). */
  options?: CompressOptions;
}

/**
 * Whether to compress `messages` (the agent's state): with no answer reporting usage, gateway hygiene on
 * their estimate; else (or when hygiene does not fire) the engine's threshold on the latest reported usage;
 * and whatever those say, when the request's estimate crosses the window less the output reserve (`stale`:
 * the answer whose usage predates the last compaction).
 */
async function compressionTrigger(engine: ContextEngine, messages: BaseMessage[], sessionId: string | undefined, stale: BaseMessage | undefined): Promise<CompressionTrigger | undefined> {
  // the prompt tokens of this conversation's latest answer, as the agent's state holds it
  const promptTokens = lastUsage(messages)?.prompt_tokens;
  // the model asked for it (compact_context) before this call: compact now, with its focus
  const request = await takeCompactionRequest(engine, sessionId);
  if (request !== undefined) return { chat: toChatMessages(messages), currentTokens: promptTokens, promptTokens: promptTokens ?? 0, trigger: "agent", options: requestedCompression(request) };
  let chat: ChatMessage[] | undefined;
  if (promptTokens === undefined) {
    chat = toChatMessages(messages);
    const hygiene = engineGatewayHygiene(engine, chat);
    if (hygiene.compress) return { chat, currentTokens: hygiene.tokens, promptTokens: hygiene.tokens, trigger: "hygiene" };
  }
  if (engine.shouldCompress(promptTokens, sessionId)) return { chat: chat ?? toChatMessages(messages), currentTokens: promptTokens, promptTokens: promptTokens ?? promptTokensOf(engine, sessionId), trigger: "usage" };
  chat ??= toChatMessages(messages);
  const outgoing = outgoingEstimate(engine, messages, chat, stale);
  return outgoing > engineRequestLimit(engine) ? { chat, currentTokens: outgoing, promptTokens: outgoing, trigger: "overflow" } : undefined;
}

/** The state update that replaces the agent's messages with `messages`. */
function replaceAll(messages: BaseMessage[]): { messages: BaseMessage[] } {
  return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...messages] };
}

/**
 * Agent middleware that compresses through a context engine, feeds usage back and offers the engine's
 * tools: `createAgent({ model, tools, middleware: [contextEngineMiddleware({ host })] })`. The trigger is the
 * latest answer's `usage_metadata` in the agent's state (with none, gateway hygiene's estimate at 85 % of
 * the window); an engine holds one conversation unless each
 * middleware names its own `sessionId`.
 */
export function contextEngineMiddleware(options: ContextEngineMiddlewareOptions): AgentMiddleware<undefined, undefined, unknown, StructuredToolInterface[]> {
  const engine = options.host !== undefined ? options.host.engine : options.engine;
  if (!isContextEngine(engine)) throw new TypeError("contextEngineMiddleware: give `engine` (a ContextEngine) or `host` (from createContextHost)");
  const { sessionId } = options;
  const fed = new WeakSet<BaseMessage>();
  const withNotice = options.compactionNotice ?? options.host?.config?.compression?.compaction_notice ?? false;
  let notice: PendingNotice | undefined;
  // the engine said background compaction is off (`compression.prepare_at` unset): no need to ask again
  let preparationOff = false;
  // the answer whose usage described the conversation before the last compaction (it may stay in the tail)
  let staleUsage: BaseMessage | undefined;
  return createMiddleware({
    name: options.name ?? "ContextEngineMiddleware",
    tools: engineTools(engine, toolCallContext(sessionId, options.scope ?? options.host?.scope)),
    beforeModel: async (state) => {
      const trigger = await compressionTrigger(engine, state.messages, sessionId, staleUsage);
      if (trigger === undefined) {
        // below the trigger: past `compression.prepare_at` the engine writes the summary in the background
        if (engine.prepareCompression !== undefined && !preparationOff) {
          const status = prepareEngineCompression(engine, toChatMessages(state.messages), { sessionId, promptTokens: lastUsage(state.messages)?.prompt_tokens });
          preparationOff = status?.state === "off";
        }
        const update = noticeUpdate(state.messages, notice);
        if (update !== undefined) notice = undefined;
        return update;
      }
      const { chat, currentTokens, promptTokens } = trigger;
      const before = lastCompactionOf(engine, sessionId);
      const compressed = await engine.compress(chat, {
        ...(currentTokens !== undefined && currentTokens > 0 ? { currentTokens } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...trigger.options,
      });
      if (!messagesChanged(chat, compressed)) return undefined;
      const messages = toBaseMessages(compressed);
      const text = withNotice ? noticeSince(before, lastCompactionOf(engine, sessionId)) : undefined;
      notice = text === undefined ? undefined : { text, after: messages.length };
      staleUsage = lastUsageAt(state.messages)?.message;
      options.onCompress?.({ messagesBefore: state.messages.length, messagesAfter: messages.length, promptTokens, compressionCount: engine.compressionCount, trigger: trigger.trigger });
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
