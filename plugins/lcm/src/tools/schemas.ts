/** Argument schemas of the agent-facing tools: zod validates, and the JSON schemas are generated from them. */
import { zodToolSchema, type ToolSchema } from "../core.js";
import { z } from "../deps.js";

const timeBound = z.union([z.string(), z.number()]).optional();

/** Which sessions a tool reaches. */
const sessionsArg = z
  .enum(["current", "conversation", "all"])
  .default("current")
  .describe('Sessions to reach: "current", "conversation" (this conversation\'s earlier sessions too, e.g. before /new) or "all" sessions of this user (the calling session\'s scope)');

/** `lcm_grep` arguments. */
export const GrepArgsSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe(
      'full_text: words to find, all of them, or any when joined by | (AND, OR and NOT are plain words); "quoted phrases" match exactly; a trailing * matches a prefix; ' +
        "CJK and other unspaced text is matched as substrings; at most 64 distinct terms. regex: a JavaScript regex (case-insensitive)",
    ),
  mode: z.enum(["full_text", "regex"]).default("full_text"),
  scope: z.enum(["messages", "summaries", "both"]).default("both"),
  sessions: sessionsArg,
  sort: z.enum(["recency", "relevance"]).default("recency").describe("recency: newest first; relevance: best full-text matches first"),
  since: timeBound.describe("Only records created at or after this time (ISO 8601 or epoch milliseconds)"),
  before: timeBound.describe("Only records created before this time (ISO 8601 or epoch milliseconds)"),
  limit: z.number().int().min(1).max(100).default(20),
});

/** `lcm_describe` arguments. */
export const DescribeArgsSchema = z.strictObject({
  id: z.string().min(1).optional().describe("A summary id (sum_…) or message id (msg_…); omit for the overview of the sessions"),
  sessions: sessionsArg,
});

/** `lcm_expand` arguments. */
export const ExpandArgsSchema = z.strictObject({
  id: z.string().min(1).describe("A summary id (sum_…) to expand into its sources, or a message id (msg_…) to read in full"),
  maxTokens: z.number().int().min(100).max(200_000).default(4000).describe("Token budget of the answer (at most the host's lcm.max_expand_tokens, default 20000); a source larger than it is cut and the answer says where the rest is"),
  offset: z.number().int().min(0).default(0).describe("Summary: the first source to show (the previous page's nextOffset). Message: the character to start from"),
  sessions: sessionsArg,
});

/** `lcm_expand_query` arguments: a question answered from expanded history, found by `query` or given as `ids`. */
export const ExpandQueryArgsSchema = z
  .strictObject({
    prompt: z.string().min(1).describe("What to answer from the expanded history"),
    query: z.string().min(1).optional().describe("Full-text search that selects the history to expand"),
    ids: z.array(z.string().min(1)).min(1).max(20).optional().describe("Summary or message ids to expand"),
    maxTokens: z.number().int().min(1).max(200_000).default(8000),
  })
  .refine((a) => a.query !== undefined || a.ids !== undefined, { error: "give either query or ids" });

/** One lcm tool as declared: its name, what the agent reads about it, its arguments, and whether it only reads. */
interface LcmToolDeclaration {
  name: string;
  description: string;
  args: z.ZodType;
  /** True when the tool only reads the store (see ToolTraits): lcm_expand_query also hands what it read to the summarizer model. */
  readOnly: boolean;
}

const LCM_TOOLS: readonly LcmToolDeclaration[] = [
  { name: "lcm_grep", description: "Search the whole stored conversation, including turns compacted out of view. Returns matches with ids and the summary that covers each.", args: GrepArgsSchema, readOnly: true },
  { name: "lcm_describe", description: "Describe a summary (sources, parents, covered messages) or a message (the summary covering it); without id, an overview of the session's history.", args: DescribeArgsSchema, readOnly: true },
  { name: "lcm_expand", description: "Expand a summary (a leaf's original messages verbatim, a condensed summary's child summaries) or read one message in full, within maxTokens; pages with offset.", args: ExpandArgsSchema, readOnly: true },
  { name: "lcm_expand_query", description: "Answer a question from expanded history: selects summaries by query or ids, expands them and answers with the summarizer model.", args: ExpandQueryArgsSchema, readOnly: false },
];

/** The JSON schemas offered to the agent; `lcm_expand_query` only with an LLM summarizer. */
export function lcmToolSchemas(withExpandQuery: boolean): ToolSchema[] {
  return LCM_TOOLS.filter((tool) => withExpandQuery || tool.name !== "lcm_expand_query").map((tool) => zodToolSchema(tool.name, tool.description, tool.args));
}

/** True for the lcm tools that only read the store: lcm_grep, lcm_describe and lcm_expand. */
export function isReadOnlyLcmTool(name: string): boolean {
  return LCM_TOOLS.some((tool) => tool.name === name && tool.readOnly);
}
