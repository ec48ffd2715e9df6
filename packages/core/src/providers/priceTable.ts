/** The schema of a user price table (`prices:` in config.yaml): model-name substring → USD per million tokens. */
import { z } from "zod";

const usdPerMillion = z.number({ error: "must be a number (USD per million tokens)" }).nonnegative({ error: "must be 0 or more (USD per million tokens)" });

/** One user price entry (snake_case like the config); missing cache prices derive from `input` with Anthropic's multipliers. */
export const PriceEntrySchema = z.object({
  input: usdPerMillion,
  output: usdPerMillion,
  cache_write_5m: usdPerMillion.optional(),
  cache_write_1h: usdPerMillion.optional(),
  cache_read: usdPerMillion.optional(),
});

/** A user price table: model-name substring → entry. */
export const PriceTableSchema = z.record(z.string(), PriceEntrySchema, { error: "must be a map of model-name substrings to prices" });
