import { describe, expect, it } from "vitest";
import { KEEP_FIRST, VERBATIM_RULE, buildSummaryPrompt, normalizeSummary } from "../../src/summarizers/prompt.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";

function headingPositions(text: string): number[] {
  return SUMMARY_SECTIONS.map((heading) => text.search(new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m")));
}

function headings(text: string): string[] {
  return text.split("\n").filter((line) => /^#{2,3} /.test(line));
}

describe("buildSummaryPrompt", () => {
  it("contains every template heading, in order, the token budget and the turns", () => {
    const prompt = buildSummaryPrompt({ messages: [], maxTokens: 3_456 }, "[USER]: hello");
    const positions = headingPositions(prompt);
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).toContain("3456 tokens");
    expect(prompt).toMatch(/file paths, commands, error messages/);
    expect(prompt).toContain("[USER]: hello");
    expect(prompt).not.toContain("PREVIOUS SUMMARY");
  });

  it("asks to update the previous summary with PREVIOUS SUMMARY and NEW TURNS sections", () => {
    const prompt = buildSummaryPrompt({ messages: [], maxTokens: 2_000, previousSummary: "## Goal\n- old goal" }, "[USER]: next");
    expect(prompt).toMatch(/update the previous summary/i);
    expect(prompt).toMatch(/"In Progress" to "Done"/);
    const previous = prompt.indexOf("PREVIOUS SUMMARY:\n## Goal\n- old goal");
    const turns = prompt.indexOf("NEW TURNS:\n[USER]: next");
    expect(previous).toBeGreaterThan(0);
    expect(turns).toBeGreaterThan(previous);
    const positions = headingPositions(prompt);
    expect(positions.every((p) => p >= 0 && p < previous)).toBe(true);
  });

  it("states the verbatim rule and what to keep first, in the first prompt and in the update prompt alike", () => {
    for (const previousSummary of [undefined, "## Goal\n- old goal"]) {
      const prompt = buildSummaryPrompt({ messages: [], maxTokens: 2_000, ...(previousSummary ? { previousSummary } : {}) }, "[USER]: hi");
      expect(prompt).toContain(VERBATIM_RULE);
      expect(prompt).toMatch(/paths, commands, identifiers, error text and the user's asks exactly as they appear/);
      expect(prompt).toMatch(/Never invent/);
      expect(prompt).toContain(KEEP_FIRST);
      expect(prompt).toMatch(/latest asks and the constraints they set/);
      expect(prompt).toMatch(/errors that are still unresolved/);
      expect(prompt.indexOf(VERBATIM_RULE)).toBeLessThan(prompt.indexOf("Template:"));
    }
  });

  it("adds guidance to prioritise a focus topic", () => {
    const prompt = buildSummaryPrompt({ messages: [], maxTokens: 2_000, focusTopic: "database migrations" }, "");
    expect(prompt).toMatch(/prioritise everything related to "database migrations"/);
  });
});

describe("normalizeSummary", () => {
  const complete = SUMMARY_SECTIONS.map((h) => (h === "## Progress" ? h : `${h}\n- item under ${h}`)).join("\n\n");

  it("leaves a complete summary unchanged", () => {
    expect(normalizeSummary(complete)).toBe(complete);
  });

  it("trims and strips a code fence around the whole output", () => {
    expect(normalizeSummary("\n```markdown\n" + complete + "\n```\n  ")).toBe(complete);
  });

  it("adds missing headings in order with a (none) item", () => {
    const out = normalizeSummary("## Goal\n- port the parser\n\n## Next Steps\n- write tests");
    expect(headings(out)).toEqual([...SUMMARY_SECTIONS]);
    expect(out).toContain("## Goal\n- port the parser");
    expect(out).toContain("### Blocked\n- (none)");
    expect(out).toContain("## Next Steps\n- write tests");
  });

  it("puts sections written out of order back in template order", () => {
    const out = normalizeSummary("## Next Steps\n- b\n\n## Goal\n- a");
    expect(headings(out)).toEqual([...SUMMARY_SECTIONS]);
    expect(out.indexOf("- a")).toBeLessThan(out.indexOf("- b"));
  });

  it("is idempotent", () => {
    const once = normalizeSummary("intro line\n## Goal\n- x");
    expect(normalizeSummary(once)).toBe(once);
  });
});
