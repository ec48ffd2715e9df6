/** The zod field builders every config section uses, so each section's error messages read the same. */
import { z } from "zod";

/** A share in (0, 1]; `what` says of what, in the error message. */
export const fraction = (what: string) =>
  z.number({ error: `must be a number between 0 and 1 (${what})` }).gt(0, { error: `must be greater than 0 (${what})` }).lte(1, { error: `must be at most 1 (${what})` });
/** A whole number above 0; `what` names the unit. */
export const positiveInt = (what: string) => z.number({ error: `must be a whole number (${what})` }).int({ error: `must be a whole number (${what})` }).positive({ error: `must be positive (${what})` });
/** A whole number of 0 or more; `what` names the unit. */
export const nonNegativeInt = (what: string) => z.number({ error: `must be a whole number (${what})` }).int({ error: `must be a whole number (${what})` }).nonnegative({ error: `must be 0 or more (${what})` });
/** `true` or `false`. */
export const bool = z.boolean({ error: "must be true or false" });
/** A string or null, null by default. */
export const optionalString = z.string({ error: "must be a string or null" }).nullable().default(null);
/** The message for a section that is not a map, e.g. `compression: 5`. */
export const sectionError = (section: string, example: string) => `must be a map of ${section} settings (e.g. ${example}), or left empty for the defaults`;
