/** The messages and failure checks the store contracts share (sessionStoreContract.ts, activeListRepairContract.ts). */
import { expect } from "vitest";
import type { ChatMessage } from "../../../src/messages/schema.js";

/** `call`'s error, whether it throws or rejects (undefined when it succeeds). */
export async function failureOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Expects `call` to throw or reject with an error of `type` whose message matches `message`. */
export async function expectFailure(call: () => unknown, type: abstract new (...args: never[]) => Error, message?: RegExp): Promise<void> {
  const error = await failureOf(call);
  expect(error).toBeInstanceOf(type);
  if (message) expect((error as Error).message).toMatch(message);
}

export const system: ChatMessage = { role: "system", content: "You are a coding agent." };
export const user = (content: string): ChatMessage => ({ role: "user", content });
export const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
export const summary = (text: string): ChatMessage => ({ role: "user", content: `[CONTEXT COMPACTION] ${text}` });

/** A conversation whose early turns mention a term the later ones do not. */
export function conversation(): ChatMessage[] {
  return [
    system,
    user("Please migrate the flamingo database to Postgres"),
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "terminal", arguments: '{"command":"pg_dump flamingo"}' } }] },
    { role: "tool", tool_call_id: "call_1", content: "dump written to flamingo.sql" },
    assistant("The dump is ready."),
    user("Now add an index on users.email"),
    assistant("Added the index."),
  ];
}

