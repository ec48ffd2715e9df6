/** Command-line parsing on node:util parseArgs, with usage errors the CLI maps to exit code 2. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.js";
import type { FlagSpecs } from "./flags.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
/** What {@link parseCommandArgs} returns for `options`: typed values and the positionals. */
export type ParsedCommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/**
 * Parses `args` against a command's declared flags (flags.ts: each with its `--help` line); unknown
 * flags and missing values become {@link UsageError}s.
 */
export function parseCommandArgs<O extends Options & FlagSpecs>(args: string[], options: O): ParsedCommandArgs<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.replace(/\. To specify .*$/s, "") : String(error));
  }
}

/** Parses a positive whole number flag value, naming the flag on error. */
export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/_/g, ""));
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, got '${value}'`);
  return n;
}
