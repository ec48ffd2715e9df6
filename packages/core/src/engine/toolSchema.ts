/** An engine tool's schema from its zod arguments schema: the one conversion every engine tool uses. */
import { z } from "zod";
import type { ToolSchema } from "./types.js";

/** The OpenAI function-tool schema of tool `name`: `args` as JSON schema of the input (without `$schema`). */
export function zodToolSchema(name: string, description: string, args: z.ZodType): ToolSchema {
  const parameters = z.toJSONSchema(args, { io: "input" }) as Record<string, unknown>;
  delete parameters.$schema;
  return { type: "function", function: { name, description, parameters } };
}
