/**
 * The adapters' `compact_context` loop (AI SDK, LangChain): a conversation of earlier turns well below the
 * trigger; the loopback server's model calls `compact_context` with a focus, the host compacts before the
 * next step with the same server as summarizer, and the model answers. A later user turn shows the notice
 * when `compression.compaction_notice` is on. The checks are in the adapters' tests.
 */
import { createContextHost, OpenAICompatibleSummarizer, type ChatMessage, type ContextHost } from "@context-engine/core";
import type { FixtureServer } from "./openaiFixtureServer.js";
import { sectionedSummary } from "./sectionedSummary.js";
import { CONTEXT_LENGTH, SYSTEM_PROMPT } from "./toolLoopScenario.js";

/** The focus the model asks for. */
export const FOCUS = "the zebra migration";
/** The model's answer after the compaction, and the answer to the later user turn. */
export const ANSWER_AFTER_COMPACTION = "Compacted; carrying on with the zebra migration.";
export const LATER_ANSWER = "The herd crossed at dawn.";
/** The user turn after the compaction. */
export const LATER_ASK = "When did the herd cross?";

/** The summary the loopback summarizer writes (every section, nothing invented). */
const SUMMARY = sectionedSummary("follow the zebra migration", ["logged the herd's crossings"]);

/** The conversation before the loop: the system prompt and six long exchanges about the herd (about 2,500 tokens). */
export function earlierTurns(): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: SYSTEM_PROMPT }];
  for (let day = 1; day <= 6; day++) {
    out.push({ role: "user", content: `Day ${day}: log where the zebra herd went. ${"The herd grazed along the river bank. ".repeat(20)}` });
    out.push({ role: "assistant", content: `Logged day ${day}: ${"the herd moved north along the river. ".repeat(20)}` });
  }
  out.push({ role: "user", content: "Free some room in your context before we go on with the migration." });
  return out;
}

/**
 * A host whose built-in compressor offers `compact_context` (at most once per 2 turns) and summarizes
 * through `server`; `notice` sets `compression.compaction_notice`.
 */
export function agentCompactionHost(dir: string, server: FixtureServer, notice: boolean): Promise<ContextHost> {
  const yaml = [
    "model:",
    "  default: fixture-model",
    `  context_length: ${CONTEXT_LENGTH}`,
    "compression:",
    "  protect_first_n: 2",
    "  protect_last_n: 2",
    "  compact_tool:",
    "    enabled: true",
    "    min_turns_between: 2",
    `  compaction_notice: ${notice}`,
    "",
  ].join("\n");
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-fixture", model: "summary-model", timeoutMs: 5_000 });
  return createContextHost({ config: yaml, rootDir: dir, summarizer });
}

/**
 * Scripts the loop on `server`, request by request: the model calls compact_context (reporting 3,000
 * prompt tokens, below the 4,000 trigger), the summarizer writes the summary, the model answers; then the
 * answer to {@link LATER_ASK}.
 */
export function scriptAgentCompaction(server: FixtureServer): void {
  server.script(
    { kind: "reply", reply: { toolCalls: [{ id: "call_compact", name: "compact_context", arguments: { focus: FOCUS } }], usage: { prompt_tokens: 3_000 } } },
    { kind: "success", content: SUMMARY },
    { kind: "reply", reply: { content: ANSWER_AFTER_COMPACTION, usage: { prompt_tokens: 900 } } },
    { kind: "reply", reply: { content: LATER_ANSWER, usage: { prompt_tokens: 1_000 } } },
  );
}
