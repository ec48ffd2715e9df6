/**
 * A stored session a host resumes (toolLoopScenario.ts's window and notes): a conversation whose very first
 * model call is already far past gateway hygiene's 85 % of the window, with no usage reported yet, and a
 * short one that is not. The adapters' hygiene tests send both through the real frameworks.
 */
import { estimateMessagesTokensRough } from "@context-engine/core";
import { hygieneThresholdTokens } from "@context-engine/core/session";
import { CONTEXT_LENGTH, readNote, SYSTEM_PROMPT } from "./toolLoopScenario.js";

/** One stored turn, plain text, in the shape every framework's messages can be built from. */
export interface StoredTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

/** The user's new message that resumes the session. */
export const RESUMED_ASK = "Given all of that, what did the zebra herd do at dawn?";

/** The stored session: the system prompt, eight exchanges each quoting a whole note (about 3,000 tokens a turn), then {@link RESUMED_ASK}. */
export function resumedSession(): StoredTurn[] {
  const turns: StoredTurn[] = [{ role: "system", content: SYSTEM_PROMPT }];
  for (let i = 0; i < 8; i++) {
    const animal = i % 2 === 0 ? "zebra" : "yak";
    turns.push({ role: "user", content: `Day ${i + 1}: here is the ${animal} note again, please keep it in mind.\n${readNote(`notes/${animal}.txt`)}` });
    turns.push({ role: "assistant", content: `Noted day ${i + 1}. ${readNote(`notes/${animal}.txt`)}` });
  }
  turns.push({ role: "user", content: RESUMED_ASK });
  return turns;
}

/** A short stored session (six messages, a few dozen tokens): below hygiene's threshold, sent as it is. */
export function shortSession(): StoredTurn[] {
  return [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: "Hello." },
    { role: "assistant", content: "Hello! What shall I read?" },
    { role: "user", content: "Nothing yet." },
    { role: "assistant", content: "Fine." },
    { role: "user", content: RESUMED_ASK },
  ];
}

/** The rough estimate of `turns` over hygiene's threshold for the scenario's window (above 1: hygiene compacts). */
export function shareOfHygieneThreshold(turns: readonly StoredTurn[]): number {
  return estimateMessagesTokensRough(turns.map((t) => ({ role: t.role, content: t.content }))) / hygieneThresholdTokens(CONTEXT_LENGTH);
}
