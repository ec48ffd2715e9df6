/**
 * A context engine inside the AI SDK's tool loop (`generateText`, `streamText`, `ToolLoopAgent`):
 * `prepareStep` feeds the previous step's usage to the engine and, when it says so, compresses the
 * messages of the step; later steps (and later calls with the same history) are sent the compacted
 * conversation plus what came after it. `onStepFinish` feeds every step's usage, the last one included;
 * `tools` offers the engine's tools (lcm_grep, …). `middleware()` does the same one level down, for
 * every call of a model wrapped with `wrapLanguageModel` (no tool loop needed). Before the conversation's
 * first reported usage (its first call, or the first after `reset()`), gateway session hygiene judges the
 * messages by their rough estimate and compresses a conversation already past 85 % of the window; a
 * request whose estimate (the last usage plus the messages since) crosses the window less the output
 * reserve is compacted first whatever the trigger says. Below the trigger an engine that can prepares
 * the summary in the background (`compression.prepare_at`).
 */
import { isDeepStrictEqual } from "node:util";
import type { LanguageModelMiddleware, LanguageModelUsage, ModelMessage, ProviderMiddleware, ToolSet } from "./aiTypes.js";
import { AWAITING_REAL_USAGE, isContextEngine, type ChatMessage, type CompressOptions, type ContextEngine, type UsageReport } from "@context-engine/core";
import { lastCompactionOf, messagesChanged, promptTokensOf, noticeSince, OutgoingRequestTracker, requestedCompression, toolCallContext } from "@context-engine/core/internal";
import { withHistoryNotice, type HistoryNotice } from "./notice.js";
import { engineGatewayHygiene, prepareEngineCompression, takeCompactionRequest } from "@context-engine/core/session";
import { toChatMessages } from "./toChatMessages.js";
import { toModelMessages } from "./toModelMessages.js";
import { engineTools } from "./tools.js";
import { modelMessagesToPrompt, promptAsModelMessages } from "./languageModelPrompt.js";
import { reportingStreamUsage } from "./streamUsage.js";
import { aiSdkUsageReport, languageModelUsageReport } from "./usage.js";

/** Options of {@link createAiSdkAdapter}: an engine, or a host (`createContextHost`) whose engine is used. */
export type AiSdkAdapterOptions = ({ engine: ContextEngine; host?: undefined } | { host: AiSdkAdapterHost; engine?: undefined }) & {
  /** The conversation's id, when one engine serves several (passed to `shouldCompress`, `compress`, `updateFromResponse`). */
  sessionId?: string;
  /** Whose conversation it is (a tenant or user id; default the host's): the engine's tools answer from this scope's sessions only. */
  scope?: string;
  /** Called after each compaction that changed the messages (not when the engine answered with them as they were). */
  onCompress?: (event: AiSdkCompressionEvent) => void;
  /** Overrides the host's `compression.compaction_notice`: after a compaction, append a one-line notice to the next user message (default off). */
  compactionNotice?: boolean;
};

/** What the adapter reads of a host (`createContextHost`'s fits): its engine, scope and the notice setting. */
export interface AiSdkAdapterHost {
  engine: ContextEngine;
  scope?: string;
  config?: { compression?: { compaction_notice?: boolean } };
}

/** What one compaction did. */
export interface AiSdkCompressionEvent {
  /** The step the compacted messages were sent in (for the middleware: the model calls it saw before this one). */
  stepNumber: number;
  /** Messages the step would have been sent without the engine (the whole history). */
  messagesBefore: number;
  /** Messages it was sent. */
  messagesAfter: number;
  /** The prompt tokens that triggered it: the last reported usage, or for `trigger: "hygiene"` the rough estimate of the messages. */
  promptTokens: number;
  /** The engine's compression count after it. */
  compressionCount: number;
  /**
   * What triggered it: `usage`, the engine's threshold on the last reported usage; `hygiene`, gateway
   * session hygiene (85 % of the window) on the estimate of a conversation with no reported usage yet;
   * `agent`, the model's `compact_context` call in the step before; `overflow`, the request's estimate
   * (the last reported usage plus the messages since) crossed the window less the output reserve.
   */
  trigger: "usage" | "hygiene" | "agent" | "overflow";
}

/** What `prepareStep` reads of the AI SDK's step options (`M`: the `ModelMessage` of the installed ai, 6 or 7). */
export interface StepInput<M = ModelMessage> {
  steps: ReadonlyArray<{ usage: LanguageModelUsage }>;
  stepNumber: number;
  messages: M[];
}

/** The history a compaction replaced and what replaced it. */
interface Compaction {
  source: ModelMessage[];
  view: ModelMessage[];
  /** The notice after it, for the next user message (`compaction_notice`). */
  notice?: HistoryNotice;
}

/** The latest compaction of one path into the model (the tool loop's steps, or the wrapped model's calls). */
interface CompactionSlot {
  current: Compaction | undefined;
  /** The messages last sent in place of a history, and that history: ai 7 hands a step's override on to the next step. */
  last?: { history: ModelMessage[]; sent: ModelMessage[] } | undefined;
}

/**
 * The history `messages` stand for: ai 7 starts a step's messages with what the step before was sent
 * instead of the history (a `prepareStep` override carries forward), so those are read as that history;
 * ai 6 hands over the whole history every step, which is returned as it is.
 */
function historyOf(slot: CompactionSlot, messages: ModelMessage[]): ModelMessage[] {
  const last = slot.last;
  return last !== undefined && startsWith(messages, last.sent) ? [...last.history, ...messages.slice(last.sent.length)] : messages;
}

/** The messages to send for `messages`: the slot's compacted view plus what came after it, or `messages` itself when the slot's compaction does not cover them. */
function viewThrough(slot: CompactionSlot, messages: ModelMessage[]): ModelMessage[] {
  const compaction = slot.current;
  if (compaction === undefined) return messages;
  if (!startsWith(messages, compaction.source)) {
    slot.current = slot.last = undefined; // another conversation
    return messages;
  }
  return [...compaction.view, ...withHistoryNotice(messages.slice(compaction.source.length), compaction.source.length, compaction.notice)];
}

/** True when `messages` starts with `prefix` (the same objects, or equal ones after a copy). */
function startsWith(messages: readonly ModelMessage[], prefix: readonly ModelMessage[]): boolean {
  if (messages.length < prefix.length) return false;
  return prefix.every((m, i) => m === messages[i] || isDeepStrictEqual(m, messages[i]));
}

/** A context engine wired into the AI SDK's tool loop; create one per conversation. */
export class AiSdkAdapter {
  readonly engine: ContextEngine;
  /** The engine's tools as AI SDK tools: spread them into `tools`. */
  readonly tools: ToolSet;
  /** The conversation's id given to the engine, if any. */
  readonly sessionId: string | undefined;
  private readonly onCompress: ((event: AiSdkCompressionEvent) => void) | undefined;
  /** The tool loop's compaction (prepareStep) and the wrapped model's (middleware), kept apart: the middleware sees what prepareStep sent. */
  private readonly steps: CompactionSlot = { current: undefined };
  private readonly calls: CompactionSlot = { current: undefined };
  /** Prompt tokens of this conversation's last reported step: undefined before any, AWAITING_REAL_USAGE after a compaction until the next. */
  private promptTokens: number | undefined;
  private readonly fed = new WeakSet<object>();
  /** Append the notice after a compaction to the next user message. */
  private readonly compactionNotice: boolean;
  /** The engine said background compaction is off (`compression.prepare_at` unset): no need to ask again. */
  private preparationOff = false;
  /** What the last request sent and what the reported usage covers: the estimate of the next one. */
  private outgoing = new OutgoingRequestTracker();

  constructor(options: AiSdkAdapterOptions) {
    const engine = options.host !== undefined ? options.host.engine : options.engine;
    if (!isContextEngine(engine)) throw new TypeError("createAiSdkAdapter: give `engine` (a ContextEngine) or `host` (from createContextHost)");
    this.engine = engine;
    this.tools = engineTools(engine, toolCallContext(options.sessionId, options.scope ?? options.host?.scope));
    this.onCompress = options.onCompress;
    this.sessionId = options.sessionId;
    this.compactionNotice = options.compactionNotice ?? options.host?.config?.compression?.compaction_notice ?? false;
  }

  /**
   * The messages the model is sent for `messages` (the AI SDK's whole history): the compacted conversation
   * plus what came after it, or `messages` itself when no compaction covers them.
   */
  view(messages: ModelMessage[]): ModelMessage[] {
    return viewThrough(this.steps, historyOf(this.steps, messages));
  }

  /** Feeds a step's usage to the engine once (steps without reported input tokens are skipped). */
  private feed(step: { usage: LanguageModelUsage }): void {
    if (this.fed.has(step)) return;
    this.fed.add(step);
    this.report(aiSdkUsageReport(step.usage));
  }

  /** Gives the engine a usage report (none: nothing reported) and remembers its prompt tokens. */
  private report(report: UsageReport | undefined): void {
    if (report === undefined) return;
    this.engine.updateFromResponse(report, this.sessionId);
    this.promptTokens = report.prompt_tokens as number;
  }

  /**
   * The AI SDK `prepareStep`: feeds the last step's usage, then sends the compacted view, compressing
   * first when the engine says so. Combine with your own: `prepareStep: async (o) => ({ ...mine(o), ...(await adapter.prepareStep(o)) })`.
   */
  readonly prepareStep = async <M extends object = ModelMessage>({ steps, stepNumber, messages }: StepInput<M>): Promise<{ messages: M[] } | undefined> => {
    const last = steps[steps.length - 1];
    if (last !== undefined) this.feed(last);
    const history = messages as unknown as ModelMessage[];
    const sent = await this.compacted(this.steps, history, stepNumber);
    return sent === history ? undefined : { messages: sent as unknown as M[] };
  };

  /**
   * The messages to send for `messages` through `slot`: its compacted view, compressed first when gateway
   * hygiene (no usage reported yet) or the engine says so (the new compaction remembered in `slot`);
   * `messages` itself when nothing changes.
   */
  private async compacted(slot: CompactionSlot, messages: ModelMessage[], stepNumber: number): Promise<ModelMessage[]> {
    const history = historyOf(slot, messages);
    const sent = await this.compactedHistory(slot, history, stepNumber);
    slot.last = sent === history ? undefined : { history, sent };
    return sent;
  }

  /** {@link compacted} of the whole history `messages`. */
  private async compactedHistory(slot: CompactionSlot, messages: ModelMessage[], stepNumber: number): Promise<ModelMessage[]> {
    const current = viewThrough(slot, messages);
    const chat = toChatMessages(current);
    const trigger = await this.compressionTrigger(chat);
    if (trigger === undefined) {
      // below the trigger: past `compression.prepare_at` the engine writes the summary in the background
      if (this.engine.prepareCompression !== undefined && !this.preparationOff) {
        const status = prepareEngineCompression(this.engine, chat, { sessionId: this.sessionId, promptTokens: this.promptTokens });
        this.preparationOff = status?.state === "off";
      }
      this.outgoing.willSend(this.promptTokens ?? 0, chat.length, false);
      return current;
    }
    const { promptTokens } = trigger;
    const before = lastCompactionOf(this.engine, this.sessionId);
    const compressed = await this.engine.compress(chat, {
      ...(promptTokens > 0 ? { currentTokens: promptTokens } : {}),
      ...(this.sessionId !== undefined ? { sessionId: this.sessionId } : {}),
      ...trigger.options,
    });
    if (!messagesChanged(chat, compressed)) {
      this.outgoing.willSend(this.promptTokens ?? 0, chat.length, false);
      return current;
    }
    const view = toModelMessages(compressed);
    const notice = this.compactionNotice ? noticeSince(before, lastCompactionOf(this.engine, this.sessionId)) : undefined;
    slot.current = { source: messages.slice(), view, ...(notice === undefined ? {} : { notice: { text: notice } }) };
    this.promptTokens = AWAITING_REAL_USAGE;
    this.outgoing.willSend(this.promptTokens, compressed.length, true);
    this.onCompress?.({ stepNumber, messagesBefore: messages.length, messagesAfter: view.length, promptTokens, compressionCount: this.engine.compressionCount, trigger: trigger.trigger });
    return view;
  }

  /**
   * Whether to compress `chat` (the messages about to be sent, as the engine's chat messages), with the
   * prompt tokens to give it: before this conversation's first reported usage, gateway hygiene on their
   * estimate; else (or when hygiene does not fire) the engine's threshold on the last reported usage;
   * and whatever those say, when the request's estimate crosses the window less the output reserve.
   */
  private async compressionTrigger(chat: ChatMessage[]): Promise<{ promptTokens: number; trigger: AiSdkCompressionEvent["trigger"]; options?: CompressOptions } | undefined> {
    // the model asked for it (compact_context) in the step before, on this worker or another: compact now, with its focus
    const request = await takeCompactionRequest(this.engine, this.sessionId);
    if (request !== undefined) return { promptTokens: Math.max(0, this.promptTokens ?? promptTokensOf(this.engine, this.sessionId)), trigger: "agent", options: requestedCompression(request) };
    if (this.promptTokens === undefined) {
      const hygiene = engineGatewayHygiene(this.engine, chat);
      if (hygiene.compress) return { promptTokens: hygiene.tokens, trigger: "hygiene" };
    }
    // this conversation's own count (an engine serving several conversations holds the latest of any)
    if (this.engine.shouldCompress(this.promptTokens, this.sessionId)) return { promptTokens: this.promptTokens ?? promptTokensOf(this.engine, this.sessionId), trigger: "usage" };
    const outgoing = this.outgoing.estimate(this.engine, chat, undefined, this.promptTokens ?? 0);
    return outgoing.overflows ? { promptTokens: outgoing.tokens, trigger: "overflow" } : undefined;
  }

  /** The AI SDK `onStepFinish`: feeds the step's usage (the last step's too, which no `prepareStep` sees). */
  readonly onStepFinish = (step: { usage: LanguageModelUsage }): void => {
    this.feed(step);
  };

  /**
   * A language-model middleware for `wrapLanguageModel({ model, middleware: adapter.middleware() })`: every
   * call of the wrapped model (`generateText`, `streamText`, with or without a tool loop) is sent the
   * compacted conversation, compressed first when the engine says so, and its reported usage (a stream's
   * at its `finish` part) is fed to the engine. Use it or `prepareStep`/`onStepFinish`, not both.
   */
  middleware(): LanguageModelMiddleware {
    let calls = 0;
    const report = (usage: Parameters<typeof languageModelUsageReport>[0]) => this.report(languageModelUsageReport(usage));
    const middleware: ProviderMiddleware & LanguageModelMiddleware = {
      specificationVersion: "v3",
      transformParams: async ({ params }) => {
        const messages = promptAsModelMessages(params.prompt);
        const sent = await this.compacted(this.calls, messages, calls++);
        return sent === messages ? params : { ...params, prompt: modelMessagesToPrompt(sent) };
      },
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        report(result.usage);
        return result;
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        return { ...result, stream: reportingStreamUsage(result.stream, report) };
      },
    };
    return middleware;
  }

  /** Forgets the compaction and the usage seen (a new conversation); the engine's counters are the engine's (`onSessionReset`). */
  reset(): void {
    this.steps.current = this.steps.last = undefined;
    this.calls.current = this.calls.last = undefined;
    this.promptTokens = undefined;
    this.outgoing = new OutgoingRequestTracker();
  }
}

/**
 * Wires a context engine into the AI SDK: `generateText({ …, tools: { ...tools, ...adapter.tools },
 * prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish })`.
 */
export function createAiSdkAdapter(options: AiSdkAdapterOptions): AiSdkAdapter {
  return new AiSdkAdapter(options);
}
