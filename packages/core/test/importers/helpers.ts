/** Paths and assertions shared by the importer tests. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { parseMessages, type ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The repository's bundled fixtures folder (test/fixtures). */
export const FIXTURES_DIR = resolve(here, "../../../../test/fixtures");

/** The team corpus (absent on a user's clone: tests that read it are skipped). */
export const CORPUS_DIR = resolve(here, "../../../../../shared/corpus/raw");
export const HAS_CORPUS = existsSync(CORPUS_DIR);

/** The text of a raw fixture copied from the corpus: test/fixtures/raw/<source>/<path>. */
export function rawFixture(path: string): string {
  return readFileSync(resolve(FIXTURES_DIR, "raw", path), "utf8");
}

/** Asserts `messages` parse as chat messages and break no provider rule. */
export function expectValidConversation(messages: ChatMessage[]): void {
  expect(() => parseMessages(messages)).not.toThrow();
  expect(validateConversation(messages)).toEqual([]);
}

/** Counts messages by role. */
export function countRoles(messages: ChatMessage[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of messages) counts[m.role] = (counts[m.role] ?? 0) + 1;
  return counts;
}

/** Number of tool calls over all assistant messages. */
export function countToolCalls(messages: ChatMessage[]): number {
  return messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
}
