/**
 * sliding_window — a small directory engine (resolution step 1): when the prompt reaches the threshold it
 * drops the oldest whole turns (a turn starts at a user message) until the estimate is under half the
 * threshold. The system prompt and the newest turn always stay; tool calls never lose their results.
 *
 * Select it with `context: { engine: sliding_window }`. It is lossy and makes no LLM call.
 */
import { ContextEngine, estimateMessagesTokensRough, sanitizeToolPairs, z, type ChatMessage, type CompressOptions, type EngineContext } from "@context-engine/core";

/** The `sliding_window:` config section (docs/BEHAVIOUR.md, "Plugin settings"); the host checks it and hands it over as `ctx.settings`. */
export const settings = z.object({
  /** Share of the threshold the window shrinks to, so compaction does not fire again on the next turn. */
  target_share: z.number({ error: "must be a number between 0 and 1 (share of the threshold)" }).gt(0, { error: "must be greater than 0" }).lt(1, { error: "must be less than 1" }).default(0.5),
});

/** The parsed `sliding_window:` section. */
export type SlidingWindowSettings = z.output<typeof settings>;

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
  /** The engine contract this engine was built for (docs/BEHAVIOUR.md, "Contract version"). */
  static readonly apiVersion = 1;
  readonly name = "sliding_window";
  /** Share of the threshold a compaction shrinks the conversation to (`sliding_window.target_share`). */
  readonly targetShare: number;

  /** Built by the host with its {@link EngineContext} (`settings`: the parsed section), or in code with any of its parts. */
  constructor(ctx: Partial<EngineContext> & ConstructorParameters<typeof ContextEngine>[0] = {}) {
    super(ctx);
    this.targetShare = settings.parse(ctx.settings ?? {}).target_share;
  }

  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }

  async compress(messages: ChatMessage[], _options: CompressOptions = {}): Promise<ChatMessage[]> {
    const head = messages.filter((m, i) => m.role === "system" && messages.slice(0, i).every((p) => p.role === "system"));
    const turns = splitTurns(messages.slice(head.length));
    const target = Math.floor(this.thresholdTokens * this.targetShare);
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
