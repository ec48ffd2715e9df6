/** A summary in the compressor's sections, as a loopback summarizer writes it (for tests that need the summarizer's text accepted). */

/** Every section of the summary format: `goal` and the `done` items filled in, the rest "(none)". */
export function sectionedSummary(goal: string, done: readonly string[]): string {
  return [
    "## Goal",
    `- ${goal}`,
    "## Constraints & Preferences",
    "- (none)",
    "## Progress",
    "### Done",
    ...done.map((item) => `- ${item}`),
    "### In Progress",
    "- (none)",
    "### Blocked",
    "- (none)",
    "## Key Decisions",
    "- (none)",
    "## Relevant Files",
    "- (none)",
    "## Next Steps",
    "- keep going",
    "## Critical Context",
    "- (none)",
  ].join("\n");
}
