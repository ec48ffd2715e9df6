import { describe, expect, it } from "vitest";
import { cutLongLines, expandPathGroups, groupPaths, PACKED_LINE_CHARS } from "../../src/summarizers/summaryPacking.js";
import { fitByPriority } from "../../src/summarizers/summaryPriority.js";
import { summaryItems, ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const FILES = ["src/compressor/a.ts — edited", "README.md — read", "src/compressor/b.ts", "docs/x.md — named by the user"];

describe("groupPaths", () => {
  it("writes the files of a directory holding two or more on one line, at the place of the first", () => {
    expect(groupPaths(FILES)).toEqual(["src/compressor/{a.ts: edited; b.ts}", "README.md — read", "docs/x.md — named by the user"]);
  });

  it("leaves alone the files it is told not to group", () => {
    expect(groupPaths(FILES, (i) => i !== 2)).toEqual(FILES);
  });

  it("reads back into one item per file", () => {
    expect(expandPathGroups(groupPaths(FILES)).sort()).toEqual([...FILES].sort());
  });
});

describe("cutLongLines", () => {
  it("cuts later asks but keeps the first goal item whole", () => {
    const long = "x".repeat(300);
    const out = cutLongLines({ "## Goal": [long, `Later: ${long}`] });
    expect(out["## Goal"]![0]).toBe(long);
    expect(out["## Goal"]![1]!.length).toBe(PACKED_LINE_CHARS);
  });
});

describe("fitByPriority with groupFiles", () => {
  const files = Array.from({ length: 40 }, (_, i) => `/Users/sean/Source/project/packages/core/src/module_${i}.ts — edited`);
  const kept = (text: string) => expandPathGroups(summaryItems(text)["## Relevant Files"] ?? []).length;

  it("keeps more files within the same budget than dropping them", () => {
    const plain = fitByPriority({ "## Relevant Files": files }, 1_500);
    const grouped = fitByPriority({ "## Relevant Files": files }, 1_500, { groupFiles: true });
    expect(grouped.length).toBeLessThanOrEqual(1_500);
    expect(kept(grouped)).toBeGreaterThan(kept(plain) * 2);
    expect(grouped).toContain("/Users/sean/Source/project/packages/core/src/{");
  });

  it("lists every file in full when they fit", () => {
    expect(fitByPriority({ "## Relevant Files": files.slice(0, 3) }, 4_000, { groupFiles: true })).toContain(`- ${files[0]}`);
  });
});

describe("an extractive summary grouping files", () => {
  it("merges a later compaction into the files of a grouped summary by path", async () => {
    const previousSummary = "## Relevant Files\n- src/app/{main.py: written; models.py: edited}";
    const messages: ChatMessage[] = [{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "src/app/main.py" }) } }] }, { role: "tool", tool_call_id: "c1", content: "print(1)" }];
    const summary = await new ExtractiveSummarizer({ groupFiles: true }).summarize({ messages, maxTokens: 2_000, previousSummary });
    expect(summary).toContain("- src/app/main.py — written, read");
    expect(summary).toContain("- src/app/models.py — edited");
  });
});
