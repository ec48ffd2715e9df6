/**
 * A context engine inside the AI SDK's tool loop (`generateText`, `streamText`, `ToolLoopAgent`):
 * `prepareStep` feeds the previous step's usage to the engine and, when it says so, compresses the
 * messages of the step; later steps (and later calls with the same history) are sent the compacted
 * conversation plus what came after it. `onStepFinish` feeds every step's usage, the last one included;
 * `tools` offers the engine's tools (lcm_grep, …).
 */
import { isDeepStrictEqual } from "node:util";
import type { LanguageModelUsage, ModelMessage, ToolSet } from "ai";
import { AWAITING_REAL_USAGE, isContextEngine, type ContextEngine } from "@context-engine/core";
import { toChatMessages } from "./toChatMessages.js";
import { toModelMessages } from "./toModelMessages.js";
import { engineTools } from "./tools.js";
import { aiSdkUsageReport } from "./usage.js";

/** Options of {@link createAiSdkAdapter}: an engine, or a host (`createContextHost`) whose engine is used. */
export type AiSdkAdapterOptions = ({ engine: ContextEngine; host?: undefined } | { host: { engine: ContextEngine }; engine?: undefined }) & {
  /** The conversation's id, when one engine serves several (passed to `shouldCompress`, `compress`, `updateFromResponse`). */
  sessionId?: string;
  /** Called after each compaction. */
  onCompress?: (event: AiSdkCompressionEvent) => void;
};

/** What one compaction did. */
export interface AiSdkCompressionEvent {
  /** The step the compacted messages were sent in. */
  stepNumber: number;
  /** Messages the step would have been sent without the engine (the whole history). */
  messagesBefore: number;
  /** Messages it was sent. */
  messagesAfter: number;
  /** The prompt tokens that triggered it (the last reported usage). */
  promptTokens: number;
  /** The engine's compression count after it. */
  compressionCount: number;
}

/** What `prepareStep` reads of the AI SDK's step options. */
export interface StepInput {
  steps: ReadonlyArray<{ usage: LanguageModelUsage }>;
  stepNumber: number;
  messages: ModelMessage[];
}

/** The history a compaction replaced and what replaced it. */
interface Compaction {
  source: ModelMessage[];
  view: ModelMessage[];
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
  private compaction: Compaction | undefined;
  /** Prompt tokens of this conversation's last reported step: undefined before any, AWAITING_REAL_USAGE after a compaction until the next. */
  private promptTokens: number | undefined;
  private readonly fed = new WeakSet<object>();

  constructor(options: AiSdkAdapterOptions) {
    const engine = options.host !== undefined ? options.host.engine : options.engine;
    if (!isContextEngine(engine)) throw new TypeError("createAiSdkAdapter: give `engine` (a ContextEngine) or `host` (from createContextHost)");
    this.engine = engine;
    this.tools = engineTools(engine);
    this.onCompress = options.onCompress;
    this.sessionId = options.sessionId;
  }

  /**
   * The messages the model is sent for `messages` (the AI SDK's whole history): the compacted conversation
   * plus what came after it, or `messages` itself when no compaction covers them.
   */
  view(messages: ModelMessage[]): ModelMessage[] {
    const compaction = this.compaction;
    if (compaction === undefined) return messages;
    if (!startsWith(messages, compaction.source)) {
      this.compaction = undefined; // another conversation
      return messages;
    }
    return [...compaction.view, ...messages.slice(compaction.source.length)];
  }

  /** Feeds a step's usage to the engine once (steps without reported input tokens are skipped). */
  private feed(step: { usage: LanguageModelUsage }): void {
    if (this.fed.has(step)) return;
    this.fed.add(step);
    const report = aiSdkUsageReport(step.usage);
    if (report === undefined) return;
    this.engine.updateFromResponse(report, this.sessionId);
    this.promptTokens = report.prompt_tokens as number;
  }

  /**
   * The AI SDK `prepareStep`: feeds the last step's usage, then sends the compacted view, compressing
   * first when the engine says so. Combine with your own: `prepareStep: async (o) => ({ ...mine(o), ...(await adapter.prepareStep(o)) })`.
   */
  readonly prepareStep = async ({ steps, stepNumber, messages }: StepInput): Promise<{ messages: ModelMessage[] } | undefined> => {
    const last = steps[steps.length - 1];
    if (last !== undefined) this.feed(last);
    const current = this.view(messages);
    const unchanged = current === messages ? undefined : { messages: current };
    // this conversation's own count (an engine serving several conversations holds the latest of any)
    const promptTokens = this.promptTokens ?? this.engine.lastPromptTokens;
    if (!this.engine.shouldCompress(this.promptTokens, this.sessionId)) return unchanged;
    const chat = toChatMessages(current);
    const session = this.sessionId !== undefined ? { sessionId: this.sessionId } : {};
    const compressed = await this.engine.compress(chat, promptTokens > 0 ? { currentTokens: promptTokens, ...session } : session);
    if (compressed === chat) return unchanged;
    const view = toModelMessages(compressed);
    this.compaction = { source: messages.slice(), view };
    this.promptTokens = AWAITING_REAL_USAGE;
    this.onCompress?.({ stepNumber, messagesBefore: messages.length, messagesAfter: view.length, promptTokens, compressionCount: this.engine.compressionCount });
    return { messages: view };
  };

  /** The AI SDK `onStepFinish`: feeds the step's usage (the last step's too, which no `prepareStep` sees). */
  readonly onStepFinish = (step: { usage: LanguageModelUsage }): void => {
    this.feed(step);
  };

  /** Forgets the compaction and the usage seen (a new conversation); the engine's counters are the engine's (`onSessionReset`). */
  reset(): void {
    this.compaction = undefined;
    this.promptTokens = undefined;
  }
}

/**
 * Wires a context engine into the AI SDK: `generateText({ …, tools: { ...tools, ...adapter.tools },
 * prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish })`.
 */
export function createAiSdkAdapter(options: AiSdkAdapterOptions): AiSdkAdapter {
  return new AiSdkAdapter(options);
}
