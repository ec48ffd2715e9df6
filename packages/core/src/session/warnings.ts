/** The user-facing line about repeated compaction (docs/BEHAVIOUR.md, "In-place compaction"). */

/** From this many compactions on, the session warns that accuracy may degrade. */
export const COMPRESSION_WARN_AFTER = 2;

/** "Session compressed N times — accuracy may degrade." once `count` reaches {@link COMPRESSION_WARN_AFTER}, else undefined. */
export function compressionCountWarning(count: number): string | undefined {
  return count >= COMPRESSION_WARN_AFTER ? `Session compressed ${count} times — accuracy may degrade.` : undefined;
}
