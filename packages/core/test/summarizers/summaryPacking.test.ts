import { describe, expect, it } from "vitest";
import { cutLongLines, expandPathGroups, groupPaths, PACKED_LINE_CHARS } from "../../src/summarizers/summaryPacking.js";
import { fitByPriority } from "../../src/summarizers/summaryPriority.js";
import { summaryItems, ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

const FILES = ["src/compressor/a.ts — edited", "README.md — read", "src/compressor/b.ts", "docs/x.md — named by the user", "src/compressor/c.ts — edited"];

describe("groupPaths", () => {
  it("writes the files of a directory that share their notes on one line as a brace list, at the place of the first", () => {
    expect(groupPaths(FILES)).toEqual(["src/compressor/{a.ts, c.ts} — edited", "README.md — read", "src/compressor/b.ts", "docs/x.md — named by the user"]);
  });

  it("leaves a path with a comma or a space as it is", () => {
    const odd = ["src/a,b.ts — read", "src/c d.ts — read", "src/e.ts — read"];
    expect(groupPaths(odd)).toEqual(odd);
  });

  it("leaves alone the files it is told not to group", () => {
    expect(groupPaths(FILES, (i) => i !== 4)).toEqual(FILES);
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

  it("cuts older later asks shorter than the four latest, which keep their packed length", () => {
    const asks = Array.from({ length: 7 }, (_, i) => `Later: ask ${i} ${"y".repeat(300)}`);
    const goal = cutLongLines({ "## Goal": ["first", ...asks] })["## Goal"]!;
    const older = goal.slice(1, 4);
    const latest = goal.slice(4);
    expect(latest.map((item) => item.length)).toEqual([PACKED_LINE_CHARS, PACKED_LINE_CHARS, PACKED_LINE_CHARS, PACKED_LINE_CHARS]);
    for (const item of older) expect(item.length).toBeLessThan(PACKED_LINE_CHARS / 2 + 1);
    expect(older[0]).toMatch(/^Later: ask 0 y+…$/);
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

  it("writes each group as a brace list a shell would expand to the files' paths", () => {
    const grouped = fitByPriority({ "## Relevant Files": files }, 1_500, { groupFiles: true });
    const line = grouped.split("\n").find((l) => l.includes("{"))!;
    expect(line).toMatch(/^- \/Users\/sean\/Source\/project\/packages\/core\/src\/\{module_\d+\.ts(, module_\d+\.ts)+\} — edited$/);
  });
});

describe("an extractive summary grouping files", () => {
  it("merges a later compaction into the files of a grouped summary by path", async () => {
    const previousSummary = "## Relevant Files\n- src/app/{main.py, models.py} — edited\n- src/app/{cli.py, db.py} — written";
    const messages: ChatMessage[] = [{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "src/app/main.py" }) } }] }, { role: "tool", tool_call_id: "c1", content: "print(1)" }];
    const summary = await new ExtractiveSummarizer({ groupFiles: true }).summarize({ messages, maxTokens: 2_000, previousSummary });
    expect(summary).toContain("- src/app/main.py — edited, read");
    expect(summary).toContain("- src/app/cli.py — written");
    expect(summary).toContain("- src/app/db.py — written");
  });
});

describe("packing commands", () => {
  it("lists a command that did not fail without what it printed, and keeps a failure whole", () => {
    const out = cutLongLines({ "### Done": ["ran `pytest -q` → 3 passed (×2)", "ran `make` → exit 2, make: *** [all] Error 1", "edited src/a.ts"] });
    expect(out["### Done"]).toEqual(["ran `pytest -q` (×2)", "ran `make` → exit 2, make: *** [all] Error 1", "edited src/a.ts"]);
  });
});

describe("an extractive summary over budget after earlier compactions", () => {
  it("keeps the previous summary's first tenth (its foundation) and newest commands ahead of its middle ones, and every command of the new turns", async () => {
    const old = Array.from({ length: 40 }, (_, i) => `- ran \`step_${String(i).padStart(2, "0")} --with-a-fairly-long-argument-list\``);
    const previousSummary = `## Goal\n- build it\n## Progress\n### Done\n${old.join("\n")}`;
    const messages: ChatMessage[] = Array.from({ length: 10 }, (_, i) => [
      { role: "assistant" as const, content: null, tool_calls: [{ id: `n${i}`, type: "function" as const, function: { name: "Bash", arguments: JSON.stringify({ command: `fresh_${i} --with-a-fairly-long-argument-list` }) } }] },
      { role: "tool" as const, tool_call_id: `n${i}`, content: "ok" },
    ]).flat();
    const summary = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 600, previousSummary });
    const kept = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, k) => `${prefix}${String(from + k).padStart(prefix === "step_" ? 2 : 1, "0")} `).filter((name) => summary.includes(name)).length;
    expect(kept("step_", 0, 4)).toBe(4);
    expect(kept("fresh_", 0, 10)).toBe(10);
    expect(kept("step_", 35, 40)).toBe(5);
    expect(kept("step_", 8, 18)).toBeLessThan(5);
  });

  it("keeps the first tenth of the previous summary's files, the session's foundation, ahead of newer files that rank a little higher", async () => {
    const old = Array.from({ length: 40 }, (_, i) => `- src/old/module_${String(i).padStart(2, "0")}_with_a_long_name.ts — in a command`);
    const previousSummary = `## Goal\n- build it\n## Relevant Files\n${old.join("\n")}`;
    const messages: ChatMessage[] = Array.from({ length: 30 }, (_, i) => [
      { role: "assistant" as const, content: null, tool_calls: [{ id: `r${i}`, type: "function" as const, function: { name: "Read", arguments: JSON.stringify({ file_path: `lib/fresh/file_${i}_with_a_long_name.ts` }) } }] },
      { role: "tool" as const, tool_call_id: `r${i}`, content: "contents" },
    ]).flat();
    const summary = await new ExtractiveSummarizer({ groupFiles: false }).summarize({ messages, maxTokens: 500, previousSummary });
    const foundation = Array.from({ length: 4 }, (_, i) => `module_0${i}_with`);
    expect(foundation.filter((name) => summary.includes(name))).toEqual(foundation);
    expect(Array.from({ length: 30 }, (_, i) => `file_${i}_with`).filter((name) => summary.includes(name)).length).toBeLessThan(30);
  });
});

describe("an extractive summary that knows the session's first summary", () => {
  const setup = Array.from({ length: 8 }, (_, i) => `ran \`setup_${i} --prepare-the-workspace-for-the-task\``);
  const middle = Array.from({ length: 32 }, (_, i) => `ran \`middle_${String(i).padStart(2, "0")} --with-a-fairly-long-argument-list\``);
  const sessionStart = `## Goal\n- port the parser\n## Progress\n### Done\n${setup.map((item) => `- ${item} → ok`).join("\n")}`;
  // a later summary: a few middle items came first when it was written, then the setup, then the rest
  const previousSummary = `## Goal\n- port the parser\n## Progress\n### Done\n${[...middle.slice(0, 4), ...setup, ...middle.slice(4)].map((item) => `- ${item}`).join("\n")}`;
  const messages: ChatMessage[] = Array.from({ length: 6 }, (_, i) => [
    { role: "assistant" as const, content: null, tool_calls: [{ id: `n${i}`, type: "function" as const, function: { name: "Bash", arguments: JSON.stringify({ command: `fresh_${i} --with-a-fairly-long-argument-list` }) } }] },
    { role: "tool" as const, tool_call_id: `n${i}`, content: "ok" },
  ]).flat();
  const count = (summary: string, prefix: string) => (summary.match(new RegExp(`${prefix}\\d+ `, "g")) ?? []).length;

  it("keeps every item the first summary holds, wherever it stands, ahead of the middle of the history", async () => {
    const summary = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 500, previousSummary, sessionStart });
    expect(count(summary, "setup_")).toBe(8);
    expect(count(summary, "fresh_")).toBe(6);
    expect(count(summary, "middle_")).toBeLessThan(16);
  });

  it("ignores a first summary of another task (another first goal)", async () => {
    const other = sessionStart.replace("port the parser", "write the release notes");
    const known = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 500, previousSummary, sessionStart });
    const unknown = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 500, previousSummary, sessionStart: other });
    expect(unknown).toBe(await new ExtractiveSummarizer().summarize({ messages, maxTokens: 500, previousSummary }));
    expect(count(unknown, "setup_")).toBeLessThan(count(known, "setup_"));
  });
});

describe("fitting fresh and carried items in their own shares", () => {
  // carried items rank higher by what they say (edited files) than the fresh ones (files only mentioned)
  const carriedFiles = Array.from({ length: 50 }, (_, i) => `src/carried/module_${String(i).padStart(2, "0")}_with_a_long_name.ts — edited`);
  const freshFiles = Array.from({ length: 30 }, (_, i) => `lib/fresh/file_${String(i).padStart(2, "0")}_with_a_long_name.ts — mentioned`);
  const sections = { "## Relevant Files": [...carriedFiles, ...freshFiles] };
  const carried = (_heading: string, item: string) => item.startsWith("src/carried/");
  const kept = (text: string, word: string) => (text.match(new RegExp(word, "g")) ?? []).length;

  it("gives the new turns' items their share of the room when the carried ones rank higher", () => {
    const oneRanking = fitByPriority(sections, 2_400, { carried });
    const pooled = fitByPriority(sections, 2_400, { carried, carriedShare: 0.35 });
    expect(kept(oneRanking, "lib/fresh/")).toBe(0);
    expect(kept(pooled, "lib/fresh/")).toBeGreaterThanOrEqual(Math.floor((2_400 * 0.6) / 60) - 4);
    expect(kept(pooled, "src/carried/")).toBeGreaterThan(0);
    expect(pooled.length).toBeLessThanOrEqual(2_400);
  });

  it("hands the room one pool leaves unused to the other", () => {
    const fewFresh = { "## Relevant Files": [...carriedFiles, ...freshFiles.slice(0, 2)] };
    const pooled = fitByPriority(fewFresh, 2_400, { carried, carriedShare: 0.35 });
    expect(kept(pooled, "lib/fresh/")).toBe(2);
    expect(kept(pooled, "src/carried/")).toBeGreaterThan(Math.floor((2_400 * 0.35) / 60));
    expect(pooled.length).toBeLessThanOrEqual(2_400);
  });
});

describe("an extractive summary of a long session", () => {
  it("fills its token budget when keeping one more group of items costs many characters at once", async () => {
    const counter = new TiktokenCounter();
    const folders = ["cctrace", "test-import", "mcp"];
    const files = Array.from({ length: 50 }, (_, i) => `- ~/.claude/projects/-mnt-c-python-${folders[i % 3]}/session-${i}-${"x".repeat(i % 7)}.jsonl — in a command`);
    const commands = Array.from({ length: 68 }, (_, i) => `- ran \`sqlite3 ~/.claude/__store.db "SELECT * FROM base_messages WHERE id = ${i}"\``);
    const asks = Array.from({ length: 6 }, (_, i) => `- Later: please check whether the session ${i} can be resumed from the other folder and tell me`);
    const previousSummary = `## Goal\n- move the sessions\n${asks.join("\n")}\n## Progress\n### Done\n${commands.join("\n")}\n## Relevant Files\n${files.join("\n")}`;
    const messages: ChatMessage[] = Array.from({ length: 12 }, (_, i) => [
      { role: "assistant" as const, content: null, tool_calls: [{ id: `n${i}`, type: "function" as const, function: { name: "Bash", arguments: JSON.stringify({ command: `ls -la ~/.claude/projects/-mnt-c-python-new-${i}/` }) } }] },
      { role: "tool" as const, tool_call_id: `n${i}`, content: "ok" },
    ]).flat();
    for (const maxTokens of [1_000, 1_300, 1_600]) {
      const tokens = counter.count(await new ExtractiveSummarizer({ tokenCounter: counter }).summarize({ messages, maxTokens, previousSummary }));
      expect(tokens, `${maxTokens}-token budget`).toBeLessThanOrEqual(maxTokens);
      expect(tokens, `${maxTokens}-token budget`).toBeGreaterThanOrEqual(maxTokens * 0.9);
    }
  });
});
