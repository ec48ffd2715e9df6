/** The summarizer contract: turns the middle of a conversation into the summary template (docs/BEHAVIOUR.md, "The compression algorithm"). */
import type { ChatMessage } from "../messages/schema.js";
import type { ModelInfo, ToolSchema } from "../engine/types.js";

/** What an engine hands a summarizer. */
export interface SummaryRequest {
  /** The turns to summarize, oldest first. */
  messages: ChatMessage[];
  /** The previous compaction's summary; when set the summarizer updates it instead of starting over. */
  previousSummary?: string;
  /** Upper bound for the summary, in tokens. */
  maxTokens: number;
  /** A topic to keep in focus (manual `/compress <topic>`). */
  focusTopic?: string;
  /**
   * The user's latest asks, oldest first: the focus when no `focusTopic` is given (auto-focus), so the
   * summary keeps in full what bears on the work the user asked for last.
   */
  recentUserAsks?: string[];
  /**
   * The user's asks that stay verbatim before the summarized turns (the protected head), for reference:
   * they state the goal the summary's "Goal" section should name. Not to be summarized again.
   */
  goalContext?: string[];
  /**
   * The summary of the turns just before these, when an engine keeps one summary per span of turns (lcm's
   * leaves): background for continuity only. The new summary covers `messages`; it does not repeat this
   * one, except the Goal it carries forward when the turns state none.
   */
  precedingSummary?: string;
  /**
   * The session's first summary: the task's setup. Over a long session a summarizer keeps what it still
   * holds of it ahead of the middle of the history (the extractive one ranks its items as the foundation).
   */
  sessionStart?: string;
  /**
   * Told about every model call an LLM summarizer makes for this request (a range longer than the
   * model's input is read in several; see summaryCalls.ts), with the tokens the API reported. The
   * compressor reports them in `lastCompression.summaryCalls`.
   */
  onModelCall?: (call: SummaryModelCall) => void;
  /**
   * The conversation the turns come from, as the agent's requests send it (`compression.summary_request:
   * suffix`): a summarizer that can asks for the summary as the conversation's suffix, so the provider
   * reads the turns from its prompt cache; one that cannot (or may not) ignores it and reads `messages`.
   */
  conversation?: SummaryConversation;
}

/**
 * A conversation a summary may be asked as the suffix of
 * (docs/BEHAVIOUR.md, "A summary that reads the cache"): every message the agent's next request would
 * send, the tool definitions it sends with them, the model it talks to, and the range
 * `messages[start, end)` to summarize.
 */
export interface SummaryConversation {
  /** The agent's messages as its requests send them (system prompt first, earlier summaries included), unchanged. */
  messages: readonly ChatMessage[];
  /** The tool definitions the agent's requests send, in their order (sent again unchanged: a change would miss the cache). */
  tools?: readonly ToolSchema[] | undefined;
  /** The conversation's model, its provider and endpoint: the cache a suffix reads belongs to them. */
  model: ModelInfo;
  /** The first message of the range to summarize. */
  start: number;
  /** The message after the range's last: the kept tail starts here. */
  end: number;
}

/** One model call a summarizer made for a summary, with the tokens its API reported (absent when it reported none). */
export interface SummaryModelCall {
  model: string;
  /** Every input token of the call, cache reads and writes included. */
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens the provider read from its prompt cache (a suffix call's conversation). */
  cacheReadTokens?: number;
  /** Input tokens the provider wrote to its prompt cache. */
  cacheWriteTokens?: number;
  /** `suffix` when the call was the conversation's suffix, `separate` when the turns were sent in a prompt of their own. */
  request?: "suffix" | "separate";
  /** Why a request that offered its conversation was sent as a separate prompt (another model, no prompt caching, …). */
  separateReason?: string;
}

/** Produces a summary text (the template body, without the compaction prefix). */
export interface Summarizer {
  /** A short name for reports ("extractive", "openai:gpt-4o-mini"). */
  readonly name?: string;
  summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string>;
}

/** The summary template's headings, in order. */
export const SUMMARY_SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Relevant Files",
  "## Next Steps",
  "## Critical Context",
] as const;
