/**
 * How pg hands over the columns whose types differ from SQLite's: BIGINT as text (a JavaScript number
 * cannot hold every 64-bit value, so pg leaves the choice to the caller) and booleans as booleans. The
 * row codecs of core's session store and lcm's store take this decoder; the rest of a row reads as in SQLite.
 */
import type { ColumnDecoder } from "@context-engine/core/store";

/** The column types of a row read through pg. */
export interface PgColumnTypes {
  bigint: string;
  boolean: boolean;
}

/** pg's columns: BIGINT text to numbers (ids and epoch-ms times stay far below 2^53), booleans as they are. */
export const PG_COLUMNS: ColumnDecoder<PgColumnTypes> = {
  bigint: (value) => Number(value),
  boolean: (value) => value,
};
