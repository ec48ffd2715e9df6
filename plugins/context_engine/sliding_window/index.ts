/**
 * sliding_window — a small directory engine (resolution step 1): when the prompt reaches the threshold it
 * drops the oldest whole turns (a turn starts at a user message) until the estimate is under half the
 * threshold. The system prompt and the newest turn always stay; tool calls never lose their results.
 *
 * Select it with `context: { engine: sliding_window }`. It is lossy and makes no LLM call.
 */
import { ContextEngine, estimateMessagesTokensRough, sanitizeToolPairs, type ChatMessage, type CompressOptions } from "@context-engine/core";

/** Share of the threshold the window shrinks to, so compaction does not fire again on the next turn. */
const TARGET_SHARE_OF_THRESHOLD = 0.5;

/** Splits the non-system messages into turns, each starting at a user message. */
export function splitTurns(messages: ChatMessage[]): ChatMessage[][] {
  const turns: ChatMessage[][] = [];
  for (const message of messages) {
    if (message.role === "user" || turns.length === 0) turns.push([message]);
    else turns[turns.length - 1]!.push(message);
  }
  return turns;
}

/** The sliding-window engine. */
export default class SlidingWindowEngine extends ContextEngine {
  static readonly engineName = "sliding_window";
  readonly name = "sliding_window";

  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }

  async compress(messages: ChatMessage[], _options: CompressOptions = {}): Promise<ChatMessage[]> {
    const head = messages.filter((m, i) => m.role === "system" && messages.slice(0, i).every((p) => p.role === "system"));
    const turns = splitTurns(messages.slice(head.length));
    const target = Math.floor(this.thresholdTokens * TARGET_SHARE_OF_THRESHOLD);
    const turnTokens = turns.map((t) => estimateMessagesTokensRough(t));
    let total = estimateMessagesTokensRough(head) + turnTokens.reduce((a, b) => a + b, 0);
    let first = 0;
    // Drop whole turns from the oldest; a leading non-user turn goes first so the kept part starts with a user message.
    while (first < turns.length - 1 && (total > target || turns[first]![0]!.role !== "user")) {
      total -= turnTokens[first]!;
      first++;
    }
    if (first === 0) return messages;
    this.compressionCount++;
    this.lastPromptTokens = -1;
    return sanitizeToolPairs([...head, ...turns.slice(first).flat()]);
  }
}
