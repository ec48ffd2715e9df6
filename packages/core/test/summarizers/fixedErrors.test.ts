import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { fixedByLaterEdit } from "../../src/summarizers/extractiveSections.js";
import { fitByPriority, itemPriority } from "../../src/summarizers/summaryPriority.js";
import { splitSummarySections } from "../../src/summarizers/prompt.js";
import type { ChatMessage } from "../../src/messages/schema.js";

function section(summary: string, heading: string): string {
  return (splitSummarySections(summary).bodies.get(heading as never) ?? []).join("\n").trim();
}

function call(id: string, name: string, args: object): ChatMessage {
  return { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] };
}

const BUILD_FAILS: ChatMessage[] = [
  { role: "user", content: "Make the resume command build" },
  call("c1", "Bash", { command: "go build ./..." }),
  { role: "tool", tool_call_id: "c1", content: 'pkg/cmd/resume.go:14:2: "strconv" imported and not used\nexit status 1', is_error: true } as ChatMessage,
];

describe("errors later fixed", () => {
  it("moves a build error to Done once the file it names was edited after it", async () => {
    const messages = [...BUILD_FAILS, call("c2", "Edit", { file_path: "/repo/pkg/cmd/resume.go" }), { role: "tool", tool_call_id: "c2", content: "The file /repo/pkg/cmd/resume.go has been updated." } as ChatMessage];
    const summary = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toBe("- (none)");
    expect(section(summary, "### Done")).toContain("ran `go build ./...` → fixed by a later edit: pkg/cmd/resume.go:14:2:");
  });

  it("keeps a build error blocked while the file it names is unchanged", async () => {
    const summary = await new ExtractiveSummarizer().summarize({ messages: BUILD_FAILS, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toContain("ran `go build ./...`");
  });

  it("needs every file the failure names edited after it, not before", () => {
    expect(fixedByLaterEdit({ at: 2, paths: ["pkg/a.go", "pkg/b.go"] }, new Map([["/r/pkg/a.go", 3]]))).toBe(false);
    expect(fixedByLaterEdit({ at: 2, paths: ["pkg/a.go"] }, new Map([["/r/pkg/a.go", 1]]))).toBe(false);
    expect(fixedByLaterEdit({ at: 2, paths: ["pkg/a.go"] }, new Map([["/r/pkg/a.go", 3]]))).toBe(true);
    expect(fixedByLaterEdit({ at: 2, paths: [] }, new Map([["/r/pkg/a.go", 3]]))).toBe(false);
  });
});

describe("ranking", () => {
  it("ranks a fixed error below an unresolved failure and the asks' constraints above decisions", () => {
    expect(itemPriority("### Done", "ran `go build` → fixed by a later edit: a.go:1: error", 0)).toBeLessThan(itemPriority("### Done", "ran `go build` → exit 1", 0));
    expect(itemPriority("## Constraints & Preferences", "Never commit to main.", 0)).toBeGreaterThan(itemPriority("## Key Decisions", "We chose SQLite because it needs no server.", 0));
  });

  it("ranks the latest of the later asks highest", () => {
    expect(itemPriority("## Goal", "Later: add the search footer", 9, 10)).toBeGreaterThan(itemPriority("## Goal", "Later: read the docs", 1, 10));
  });

  it("ranks a file touched more than one way above one touched once", () => {
    expect(itemPriority("## Relevant Files", "src/a.ts — read, edited", 0)).toBeGreaterThan(itemPriority("## Relevant Files", "src/b.ts — edited", 0));
  });
});

describe("sharing the budget between sections", () => {
  it("with a section share, keeps the best items of every section instead of one section taking the room of another", () => {
    const files = Array.from({ length: 40 }, (_, i) => `/Users/sean/Source/project/packages/core/src/module_${i}.ts — edited`);
    const done = Array.from({ length: 20 }, (_, i) => `ran \`go test ./pkg/part${i}/...\` → ok`);
    const text = fitByPriority({ "## Relevant Files": files, "### Done": done }, 2_500, { sectionShare: 60 });
    expect(text.length).toBeLessThanOrEqual(2_500);
    expect(text).toContain("ran `go test ./pkg/part");
    expect(text).toContain("/Users/sean/Source/project/packages/core/src/module_");
  });
});
