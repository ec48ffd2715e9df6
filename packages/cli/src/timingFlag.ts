/** `--timing` of `simulate` and `eval`: one `compression.timing` policy, or both side by side. */
import { UsageError } from "./errors.js";

/** The values of `compression.timing`. */
export type CompressionTiming = "threshold" | "cache_aware";

/** The policies compared by `--timing both`, in the order their columns are printed. */
export const TIMING_POLICIES: readonly CompressionTiming[] = ["threshold", "cache_aware"];

/** The policies `--timing` asks for: undefined (the config's), one, or both; anything else is a usage error naming the flag. */
export function parseTimingFlag(value: string | undefined): readonly CompressionTiming[] | undefined {
  if (value === undefined) return undefined;
  if (value === "both") return TIMING_POLICIES;
  if (value === "threshold" || value === "cache_aware") return [value];
  throw new UsageError(`--timing must be threshold, cache_aware or both, got '${value}'`);
}
