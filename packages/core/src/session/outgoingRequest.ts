/**
 * The session's estimate of the request it is about to let through
 * (docs/BEHAVIOUR.md, "No request over the window"): which messages the engine's last reported usage covered — the list the previous
 * `maybeCompress` let go out, once the engine's prompt tokens changed after it — and the estimate of the
 * current list from there (engine/requestFit.ts). The thin stateful part; the arithmetic is pure.
 */
import type { ContextEngine } from "../engine/ContextEngine.js";
import { estimateRequestTokens, requestLimitTokens, type CountMessages, type RequestEstimate, type RequestUsage } from "../engine/requestFit.js";
import type { ChatMessage } from "../messages/schema.js";
import { calibrationRatio } from "../tokens/calibration.js";
import { estimateMessagesTokensRough } from "../tokens/rough.js";

/** The engine's own counter when it carries one (the built-in compressor does); undefined otherwise (the rough estimate is used). */
export function engineCount(engine: ContextEngine): CountMessages | undefined {
  const counter = (engine as { tokenCounter?: { countMessages?: unknown } }).tokenCounter;
  if (typeof counter?.countMessages !== "function") return undefined;
  const countMessages = counter.countMessages as (messages: ChatMessage[]) => number;
  return (messages) => countMessages.call(counter, messages as ChatMessage[]);
}

/** The overflow line of `engine`: its `requestLimitTokens`, else (an engine built on another copy of core) the line of its window. */
export function engineRequestLimit(engine: ContextEngine): number {
  const limit = (engine as { requestLimitTokens?: unknown }).requestLimitTokens;
  return typeof limit === "number" && limit > 0 ? limit : requestLimitTokens(engine.model ?? { contextLength: engine.contextLength });
}

/** The estimate of the next request of one session and whether it crosses the engine's line. */
export interface OutgoingRequest extends RequestEstimate {
  overflows: boolean;
  limitTokens: number;
}

/** Per session: what the last request sent, and what the usage reported for it covered. */
export class OutgoingRequestTracker {
  /** The list the last check let go out, and the engine's prompt tokens at that moment. */
  private sent: { messages: number; promptTokensBefore: number; compacted: boolean } | undefined;
  /** The messages the engine's reported usage covers, once a response to a sent list came. */
  private covered: { messages: number; promptTokens: number } | undefined;
  /** Real/counted ratio of the last covered request, for estimates without a report (after a compaction). */
  private calibration: number | undefined;

  /**
   * The estimate of sending `messages` through `engine`, `reported` being the conversation's last reported
   * prompt tokens (default: the engine's). `promptTokens`, when the caller gives it, is taken as the usage
   * of the whole list (nothing added since).
   */
  estimate(engine: ContextEngine, messages: readonly ChatMessage[], promptTokens?: number, reported: number = engine.lastPromptTokens): OutgoingRequest {
    const count = engineCount(engine);
    if (this.sent !== undefined && reported > 0 && reported !== this.sent.promptTokensBefore) {
      // the engine was told the usage of the list sent last: it covers that list
      this.covered = { messages: Math.min(this.sent.messages, messages.length), promptTokens: reported };
      const covered = messages.slice(0, this.covered.messages);
      this.calibration = calibrationRatio(reported, count ? count(covered) : estimateMessagesTokensRough(covered)) ?? this.calibration;
      this.sent = undefined;
    }
    // right after a compaction the engine's usage (if it kept one) describes the list before it: not used
    const stale = this.sent?.compacted === true;
    const usage: RequestUsage =
      promptTokens !== undefined
        ? { lastPromptTokens: promptTokens }
        : stale
          ? { calibration: this.calibration }
          : { lastPromptTokens: reported, reportedMessages: this.covered?.promptTokens === reported ? this.covered.messages : undefined, calibration: this.calibration };
    const estimate = estimateRequestTokens(messages, usage, count);
    const limitTokens = engineRequestLimit(engine);
    return { ...estimate, limitTokens, overflows: estimate.tokens > limitTokens };
  }

  /** The request of `messages` messages goes out now, after this check and the compaction it ran when `compacted`; `reported` is the conversation's last reported prompt tokens now. */
  willSend(reported: number, messages: number, compacted: boolean): void {
    if (compacted) this.covered = undefined;
    // a list that was compacted stays "compacted" until a response reports its usage
    this.sent = { messages, promptTokensBefore: reported, compacted: compacted || (this.sent?.compacted === true && this.sent.promptTokensBefore === reported) };
  }
}
