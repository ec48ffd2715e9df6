/**
 * What `getStatus()` reports of an engine's last compaction, and the one-line notice a host may append to
 * the next user turn after it (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see"). Pure.
 */

/** The last compaction that changed the conversation, as `getStatus().lastCompaction` reports it. */
export interface LastCompaction {
  /** When it finished (ISO 8601). */
  at: string;
  /** Messages of the conversation before and after it. */
  messagesBefore: number;
  messagesAfter: number;
  /** Prompt tokens before it (reported usage when the host passed it, else the engine's count) and after it (the engine's count). */
  tokensBefore: number;
  tokensAfter: number;
  /** True when the fallback (offline) summarizer wrote some or all of the summary. */
  fallbackUsed: boolean;
  /** Facts the verbatim guard removed from the summary as invented; null for an engine without the guard. */
  inventedFactsRemoved: number | null;
  /** The focus the summary was asked to keep (the agent's `compact_context` focus, or a manual topic). */
  focus?: string;
  /** The engine's tool that reads the compacted turns back (`session_search`, `lcm_expand`), when it offers one. */
  recoveryTool?: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The notice after `last`, one line: what was compacted and which tool recovers it, e.g.
 * `[Context compacted: 14 messages → 5, 7,600 → 1,900 tokens; older turns are summarized, session_search reads them back.]`
 */
export function compactionNoticeText(last: LastCompaction): string {
  const focus = last.focus === undefined ? "" : ` (focus: ${last.focus.replace(/\s+/g, " ")})`;
  const recovery = last.recoveryTool === undefined ? "" : `, ${last.recoveryTool} reads them back`;
  return `[Context compacted: ${count(last.messagesBefore)} messages → ${count(last.messagesAfter)}, ${count(last.tokensBefore)} → ${count(last.tokensAfter)} tokens; older turns are summarized${focus}${recovery}.]`;
}

/**
 * `engine.getStatus(sessionId).lastCompaction` (an engine that keeps them per session reports that
 * session's); undefined for an engine that reports none or has no `getStatus` (engines are duck-typed).
 */
export function lastCompactionOf(engine: unknown, sessionId?: string): LastCompaction | undefined {
  const getStatus = (engine as { getStatus?: unknown } | undefined)?.getStatus;
  return typeof getStatus === "function" ? (getStatus.call(engine, sessionId) as { lastCompaction?: LastCompaction }).lastCompaction : undefined;
}

/** The notice after a compaction: `after`'s, when it is a newer last compaction than `before` (the status read before the compaction ran). */
export function noticeSince(before: LastCompaction | undefined, after: LastCompaction | undefined): string | undefined {
  return after !== undefined && after !== before ? compactionNoticeText(after) : undefined;
}

/** `text` with `notice` appended on a line of its own (a user turn's text). */
export function withNoticeLine(text: string, notice: string): string {
  return text === "" ? notice : `${text}\n\n${notice}`;
}

/** A user message with `notice` appended to its text (a text part added to a list of parts); other roles unchanged. */
export function userTurnWithNotice<M extends { role: string; content: unknown }>(message: M, notice: string): M {
  if (message.role !== "user") return message;
  const { content } = message;
  if (typeof content === "string") return { ...message, content: withNoticeLine(content, notice) };
  if (Array.isArray(content)) return { ...message, content: [...content, { type: "text", text: notice }] };
  return { ...message, content: notice };
}
