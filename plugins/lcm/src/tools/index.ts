/** The tool dispatcher: validates arguments with zod and never throws into the host. */
import { z } from "../deps.js";
import { SearchError } from "../store/search.js";
import { runDescribe } from "./describe.js";
import { runExpand } from "./expand.js";
import { runExpandQuery } from "./expandQuery.js";
import { runGrep } from "./grep.js";
import { ToolError, toolErrorResult, toolResult } from "./result.js";
import { DescribeArgsSchema, ExpandArgsSchema, ExpandQueryArgsSchema, GrepArgsSchema } from "./schemas.js";
import type { ReadWith, ToolContext, ToolReader } from "./types.js";

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

/**
 * Runs one lcm tool; the result is a JSON string, failures are `{error, code}`. Unknown names return
 * undefined. Arguments are checked before `read` opens; every store read of a call happens within it,
 * and a model call (lcm_expand_query's answer) after it.
 */
export async function dispatchLcmTool(ctx: ToolContext, name: string, args: unknown, read: ToolReader = (body) => body(ctx.store)): Promise<string | undefined> {
  const within: ReadWith = (body) => read((store) => body({ ...ctx, store }));
  try {
    switch (name) {
      case "lcm_grep": {
        const parsed = parseArgs(GrepArgsSchema, name, args);
        return toolResult(await within((reading) => runGrep(reading, parsed)));
      }
      case "lcm_describe": {
        const parsed = parseArgs(DescribeArgsSchema, name, args);
        return toolResult(await within((reading) => runDescribe(reading, parsed)));
      }
      case "lcm_expand": {
        const parsed = parseArgs(ExpandArgsSchema, name, args);
        return toolResult(await within((reading) => runExpand(reading, parsed)));
      }
      case "lcm_expand_query":
        if (!ctx.llmSummarizer) return undefined;
        return toolResult(await runExpandQuery(ctx, parseArgs(ExpandQueryArgsSchema, name, args), within));
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof ToolError || error instanceof SearchError) return toolErrorResult(error.code, error.message);
    return toolErrorResult("internal", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
