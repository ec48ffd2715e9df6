/**
 * The adapters' tool loop with background compaction (`compression.prepare_at`): the model's loopback
 * server reports usage past the preparation point, then past the trigger; a second loopback server is
 * the summarizer, answering after a delay. The app's tool waits until the summarizer has answered, so
 * the compaction at the trigger finds the summary ready and applies it without waiting.
 */
import { createContextHost, OpenAICompatibleSummarizer, SUMMARY_SECTIONS, type ContextHost } from "@context-engine/core";
import type { ContextCompressor } from "@context-engine/core";
import type { FixtureServer } from "./openaiFixtureServer.js";
import { CONTEXT_LENGTH, FINAL_ANSWER, readNote } from "./toolLoopScenario.js";

/** The summary the summarizer server writes. */
export const BACKGROUND_SUMMARY = SUMMARY_SECTIONS.map((heading) => `${heading}\n- item`).join("\n");
/** How long the summarizer server takes. */
export const SUMMARY_DELAY_MS = 300;
/** The short note the third step reads (it joins the tail after the prepared range). */
export const SHORT_NOTE = "notes/short.txt";

/** A host on the built-in compressor that prepares from 80 % of the trigger, summarizing through `summaries`. */
export function backgroundHost(dir: string, summaries: FixtureServer): Promise<ContextHost> {
  const yaml = ["model:", "  default: fixture-model", `  context_length: ${CONTEXT_LENGTH}`, "compression:", "  protect_first_n: 2", "  protect_last_n: 2", "  prepare_at: 0.8", ""].join("\n");
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: summaries.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
  return createContextHost({ config: yaml, rootDir: dir, summarizer });
}

/**
 * Scripts the loop: readFile(zebra) → readFile(yak) reporting 6,000 prompt tokens (past the preparation
 * point of the 6,800-token trigger) → readFile(short) reporting 7,600 (past the trigger) → the answer.
 */
export function scriptBackgroundLoop(model: FixtureServer, summaries: FixtureServer): void {
  summaries.setDefault({ kind: "delay", ms: SUMMARY_DELAY_MS, then: { kind: "success", content: BACKGROUND_SUMMARY } });
  model.script(
    { kind: "reply", reply: { content: "Reading the zebra note.", toolCalls: [{ id: "call_zebra", name: "readFile", arguments: { path: "notes/zebra.txt" } }], usage: { prompt_tokens: 900 } } },
    { kind: "reply", reply: { content: "Now the yak note.", toolCalls: [{ id: "call_yak", name: "readFile", arguments: { path: "notes/yak.txt" } }], usage: { prompt_tokens: 6_000 } } },
    { kind: "reply", reply: { toolCalls: [{ id: "call_short", name: "readFile", arguments: { path: SHORT_NOTE } }], usage: { prompt_tokens: 7_600 } } },
    { kind: "reply", reply: { content: FINAL_ANSWER, usage: { prompt_tokens: 1_500, completion_tokens: 12 } } },
  );
}

/**
 * The app's tool in this loop: the short note waits until the engine's background summary is ready, the
 * zebra note as in the scenario, the yak note short too — the usage scripted for the zebra note's request
 * (6,000 tokens) with a long yak note after it would cross the window less its output reserve, and be compacted first.
 */
export async function readNoteAfterSummary(path: string, host: ContextHost): Promise<string> {
  if (path.includes("yak")) return "1. yak field note: the herd rested by the river.";
  if (path !== SHORT_NOTE) return readNote(path);
  const engine = host.engine as ContextCompressor;
  const deadline = Date.now() + 10_000;
  while (engine.preparationStatus().state !== "ready") {
    if (Date.now() > deadline) throw new Error(`the background summary is not ready: ${JSON.stringify(engine.preparationStatus())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return "A short note.";
}
