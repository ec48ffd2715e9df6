/**
 * `lcm_expand_query` (only with an LLM summarizer): selects history by full-text `query` or explicit
 * `ids`, expands it down to the original messages within a token budget, and has the summarizer model
 * answer `prompt` from them.
 */
import type { ChatMessage } from "../core.js";
import type { z } from "../deps.js";
import { isSummaryId } from "../messageText.js";
import type { StoredMessage } from "../store/LcmStore.js";
import { withTimeout } from "../summarize.js";
import { runGrep } from "./grep.js";
import { ToolError } from "./result.js";
import type { ExpandQueryArgsSchema } from "./schemas.js";
import type { ReadWith, ToolContext } from "./types.js";

/** The original messages under `id` (a summary, walked down its lineage, or a message), in order. */
export async function originalMessagesUnder(ctx: ToolContext, id: string): Promise<StoredMessage[]> {
  if (!isSummaryId(id)) {
    const m = await ctx.store.getMessage(id);
    if (!m || m.session !== ctx.session) throw new ToolError("not_found", `no message or summary ${id} in this session`);
    return [m];
  }
  const summary = await ctx.store.getSummary(id);
  if (!summary || summary.session !== ctx.session) throw new ToolError("not_found", `no summary ${id} in this session`);
  return ctx.store.getMessagesBySeq(ctx.session, summary.seqStart, summary.seqEnd);
}

/**
 * Runs `lcm_expand_query`: the history it answers from is read within `read` (on PostgreSQL one
 * transaction limited to the caller's scope), and the summarizer is asked only after that read has
 * ended, so no connection or transaction is held while the model answers.
 */
export async function runExpandQuery(ctx: ToolContext, args: z.output<typeof ExpandQueryArgsSchema>, read: ReadWith = (body) => body(ctx)): Promise<Record<string, unknown>> {
  const summarizer = ctx.llmSummarizer;
  if (!summarizer) throw new ToolError("unavailable", "lcm_expand_query needs an LLM summarizer to be configured");
  const pausedUntil = ctx.summarizerPausedUntil ?? 0;
  if ((ctx.now ?? Date.now)() < pausedUntil) {
    throw new ToolError(
      "unavailable",
      `lcm_expand_query is paused until ${new Date(pausedUntil).toISOString()}: the summarizer refused its credentials (lcm.auth_cooldown_ms); read the history with lcm_grep and lcm_expand meanwhile`,
    );
  }
  const sources = await read((reading) => expandQuerySources(reading, args));
  if (sources.ids.length === 0) return { prompt: args.prompt, ids: [], answer: null, sources: 0, note: "nothing matched the query" };
  const messages: ChatMessage[] = [...sources.picked.map((m) => m.message), { role: "user", content: `Answer from the conversation above: ${args.prompt}` }];
  const answer = await withTimeout((signal) => summarizer.summarize({ messages, maxTokens: 2_000, focusTopic: args.prompt }, signal), ctx.summaryTimeoutMs);
  return { prompt: args.prompt, ids: sources.ids, answer, sources: sources.picked.length, truncated: sources.truncated };
}

/** The ids `args` selects (found by its query, or given) and their original messages in order, within its token budget. */
async function expandQuerySources(ctx: ToolContext, args: z.output<typeof ExpandQueryArgsSchema>): Promise<{ ids: string[]; picked: StoredMessage[]; truncated: boolean }> {
  let ids = args.ids ?? [];
  if (args.query !== undefined) {
    const found = (await runGrep(ctx, { pattern: args.query, mode: "full_text", scope: "both", sessions: "current", sort: "relevance", limit: 20 })).matches as { id: string; coveredBy: string | null }[];
    ids = [...new Set([...ids, ...found.map((m) => m.coveredBy ?? m.id)])].slice(0, 20);
  }
  const seen = new Set<string>();
  const picked: StoredMessage[] = [];
  let used = 0;
  let truncated = false;
  for (const id of ids) {
    for (const m of await originalMessagesUnder(ctx, id)) {
      if (seen.has(m.id)) continue;
      if (used + m.tokens > args.maxTokens && picked.length > 0) {
        truncated = true;
        break;
      }
      seen.add(m.id);
      picked.push(m);
      used += m.tokens;
    }
  }
  picked.sort((a, b) => a.seq - b.seq);
  return { ids, picked, truncated };
}
