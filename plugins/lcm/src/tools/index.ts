/** The tool dispatcher: validates arguments with zod and never throws into the host. */
import { z } from "../deps.js";
import { SearchError } from "../store/search.js";
import { runDescribe } from "./describe.js";
import { runExpand } from "./expand.js";
import { runExpandQuery } from "./expandQuery.js";
import { runGrep } from "./grep.js";
import { ToolError, toolErrorResult, toolResult } from "./result.js";
import { DescribeArgsSchema, ExpandArgsSchema, ExpandQueryArgsSchema, GrepArgsSchema } from "./schemas.js";
import type { ToolContext } from "./types.js";

/** Names of the tools lcm offers. */
export const LCM_TOOL_NAMES = ["lcm_grep", "lcm_describe", "lcm_expand", "lcm_expand_query"] as const;

function parseArgs<S extends z.ZodType>(schema: S, tool: string, args: unknown): z.output<S> {
  let value = args ?? {};
  if (typeof value === "string") {
    try {
      value = value.trim() === "" ? {} : JSON.parse(value);
    } catch {
      throw new ToolError("invalid_arguments", `${tool}: arguments are not valid JSON`);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ToolError("invalid_arguments", `${tool}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Runs one lcm tool; the result is a JSON string, failures are `{error, code}`. Unknown names return undefined. */
export async function dispatchLcmTool(ctx: ToolContext, name: string, args: unknown): Promise<string | undefined> {
  try {
    switch (name) {
      case "lcm_grep":
        return toolResult(await runGrep(ctx, parseArgs(GrepArgsSchema, name, args)));
      case "lcm_describe":
        return toolResult(await runDescribe(ctx, parseArgs(DescribeArgsSchema, name, args)));
      case "lcm_expand":
        return toolResult(await runExpand(ctx, parseArgs(ExpandArgsSchema, name, args)));
      case "lcm_expand_query":
        if (!ctx.llmSummarizer) return undefined;
        return toolResult(await runExpandQuery(ctx, parseArgs(ExpandQueryArgsSchema, name, args)));
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof ToolError || error instanceof SearchError) return toolErrorResult(error.code, error.message);
    return toolErrorResult("internal", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
