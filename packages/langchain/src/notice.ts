/**
 * The notice after a compaction in the agent's state (`compression.compaction_notice`): appended to the
 * first human message after the compacted messages, by a state update that replaces that message (same
 * id), so it stays in the state and in every later call. Never to a tool message.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { userTurnWithNotice } from "@context-engine/core/internal";

/** The notice waiting for the next human message: its text, and how many messages the compacted state began with. */
export interface PendingNotice {
  text: string;
  after: number;
}

/** The state update putting `notice` on the first human message after the compacted ones; undefined while there is none (or no notice). */
export function noticeUpdate(messages: readonly BaseMessage[], notice: PendingNotice | undefined): { messages: BaseMessage[] } | undefined {
  if (notice === undefined) return undefined;
  const human = messages.slice(notice.after).find((m) => HumanMessage.isInstance(m) && m.id !== undefined);
  if (human === undefined) return undefined;
  const { content } = userTurnWithNotice({ role: "user", content: human.content }, notice.text);
  return { messages: [new HumanMessage({ id: human.id, content: content as HumanMessage["content"] })] };
}
