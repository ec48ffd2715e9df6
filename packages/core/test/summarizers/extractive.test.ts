import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { normalizeSummary, splitSummarySections } from "../../src/summarizers/prompt.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { FASTAPI_CONVERSATION } from "./conversation.js";

const summarizer = new ExtractiveSummarizer();

function section(summary: string, heading: (typeof SUMMARY_SECTIONS)[number]): string {
  return (splitSummarySections(summary).bodies.get(heading) ?? []).join("\n").trim();
}

function headings(text: string): string[] {
  return text.split("\n").filter((line) => /^#{2,3} /.test(line));
}

/** The FastAPI conversation without the final passing run: the tests are still failing. */
const STILL_FAILING: ChatMessage[] = FASTAPI_CONVERSATION.slice(0, 7);

describe("ExtractiveSummarizer", () => {
  it("fills every template heading from a realistic conversation", async () => {
    const summary = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000 });
    expect(headings(summary)).toEqual([...SUMMARY_SECTIONS]);
    expect(section(summary, "## Goal")).toContain("Help me set up a FastAPI project with a /items endpoint");
    expect(section(summary, "## Constraints & Preferences")).toContain("Please use pytest for tests and never commit to main.");
    expect(section(summary, "## Constraints & Preferences")).toContain("The server must listen on port 8000.");
    const done = section(summary, "### Done");
    expect(done).toContain("ran `pytest -q` → exit 1, 2 passed, 1 failed");
    expect(done).toContain("ran `pytest -q` → exit 0, 3 passed");
    expect(done).toContain("edited src/app/models.py");
    expect(section(summary, "### In Progress")).toContain("I will add a 404 handler in src/app/main.py next.");
    expect(section(summary, "## Key Decisions")).toContain("I decided to use SQLite because it needs no server.");
    const files = section(summary, "## Relevant Files");
    expect(files).toContain("- src/app/main.py — written");
    expect(files).toContain("- tests/test_api.py — read");
    expect(files).toContain("- src/app/models.py — edited");
    expect(section(summary, "## Next Steps")).toContain("also add error handling for missing items");
    const critical = section(summary, "## Critical Context");
    expect(critical).toContain("AssertionError: expected 201, got 422");
    expect(critical).toContain("0.110.0");
    expect(critical).toContain("8000");
    expect(critical).toContain("http://localhost:8000/docs");
  });

  it("reports a failing test run that was not fixed as a blocker", async () => {
    const summary = await summarizer.summarize({ messages: STILL_FAILING, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toContain("ran `pytest -q`: FAILED tests/test_api.py::test_create_item");
    expect(section(summary, "## Next Steps")).toContain("Fix the failure of ran `pytest -q`");
  });

  it("clears a blocker once the same command passes again", async () => {
    const summary = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toBe("- (none)");
  });

  it("lists a tool call without a result as in progress", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Build the release binary" },
      { role: "assistant", content: null, tool_calls: [{ id: "c9", type: "function", function: { name: "terminal", arguments: '{"command":"cargo build --release"}' } }] },
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(section(summary, "### In Progress")).toContain("awaiting the result of ran `cargo build --release`");
    expect(section(summary, "### Done")).toBe("- (none)");
  });

  it("stays within its token budget and keeps every heading", async () => {
    const long: ChatMessage[] = [...FASTAPI_CONVERSATION];
    for (let i = 0; i < 80; i++) {
      long.push({ role: "assistant", content: `Step ${i}: I decided to refactor module_${i} because it is slow.`, tool_calls: [{ id: `r${i}`, type: "function", function: { name: "edit_file", arguments: JSON.stringify({ path: `src/pkg/module_${i}.py` }) } }] });
      long.push({ role: "tool", tool_call_id: `r${i}`, content: `Edited src/pkg/module_${i}.py` });
      long.push({ role: "user", content: `Now please also handle case ${i}; you must keep the public API stable.` });
    }
    for (const maxTokens of [2_000, 500, 200]) {
      const summary = await summarizer.summarize({ messages: long, maxTokens });
      expect(summary.length).toBeLessThanOrEqual(maxTokens * 4);
      expect(headings(summary)).toEqual([...SUMMARY_SECTIONS]);
    }
  });

  it("keeps the first and the most recent work when the Done section must be trimmed, dropping the middle", async () => {
    const long: ChatMessage[] = [{ role: "user", content: "Build every module" }];
    for (let i = 0; i < 60; i++) {
      long.push({ role: "assistant", content: null, tool_calls: [{ id: `r${i}`, type: "function", function: { name: "terminal", arguments: JSON.stringify({ command: `make module_${i}` }) } }] });
      long.push({ role: "tool", tool_call_id: `r${i}`, content: "built" });
    }
    const done = section(await summarizer.summarize({ messages: long, maxTokens: 300 }), "### Done");
    expect(done).toContain("ran `make module_59`");
    expect(done).toContain("ran `make module_0`");
    expect(done).not.toContain("ran `make module_30`");
    expect(done).toMatch(/- … \(\d+ more omitted\)/);
  });

  it("keeps the items about the focus topic when trimming", async () => {
    const long: ChatMessage[] = [{ role: "user", content: "Touch every module" }];
    for (let i = 0; i < 60; i++) {
      long.push({ role: "assistant", content: null, tool_calls: [{ id: `r${i}`, type: "function", function: { name: "edit_file", arguments: JSON.stringify({ path: i === 3 ? "src/billing.py" : `src/m${i}.py` }) } }] });
      long.push({ role: "tool", tool_call_id: `r${i}`, content: "ok" });
    }
    const summary = await summarizer.summarize({ messages: long, maxTokens: 300, focusTopic: "billing" });
    expect(section(summary, "### Done")).toContain("edited src/billing.py");
    expect(section(summary, "## Relevant Files")).toContain("src/billing.py — edited");
  });

  it("produces output that normalizeSummary leaves unchanged", async () => {
    const summary = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000 });
    expect(normalizeSummary(summary)).toBe(summary);
  });

  it("is deterministic", async () => {
    const a = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 800 });
    const b = await new ExtractiveSummarizer().summarize({ messages: structuredClone(FASTAPI_CONVERSATION), maxTokens: 800 });
    expect(b).toBe(a);
  });

  it("merges into the previous summary: keeps its items, appends new ones, replaces the current state", async () => {
    const previousSummary = normalizeSummary(
      [
        "## Goal\n- Port the CLI to Rust",
        "## Constraints & Preferences\n- Never use unsafe code",
        "### Done\n- ran `cargo init` → exit 0",
        "### In Progress\n- Porting the argument parser",
        "## Relevant Files\n- src/main.rs — created\n- src/app/main.py — read",
        "## Critical Context\n- Versions: 1.75.0",
      ].join("\n\n"),
    );
    const summary = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000, previousSummary });
    expect(headings(summary)).toEqual([...SUMMARY_SECTIONS]);
    const goal = section(summary, "## Goal");
    expect(goal.startsWith("- Port the CLI to Rust")).toBe(true);
    expect(goal).toContain("- Later: Help me set up a FastAPI project");
    expect(section(summary, "## Constraints & Preferences")).toContain("- Never use unsafe code");
    const done = section(summary, "### Done");
    expect(done.indexOf("cargo init")).toBeLessThan(done.indexOf("pytest -q"));
    expect(section(summary, "### In Progress")).not.toContain("Porting the argument parser");
    const files = section(summary, "## Relevant Files");
    expect(files).toContain("- src/main.rs — created");
    expect(files).toContain("- src/app/main.py — read, written");
    expect(section(summary, "## Critical Context")).toContain("1.75.0");
  });

  it("does not repeat lines when merging a summary of the same turns", async () => {
    const first = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000 });
    const again = await summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000, previousSummary: first });
    const lines = again.split("\n").filter((line) => line.startsWith("- ") && line !== "- (none)");
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("redacts secrets it copies from the turns", async () => {
    const summary = await summarizer.summarize({ messages: [{ role: "user", content: "Connect with postgres://app:hunter2@db:5432/x please, you must use api_key=abc123" }], maxTokens: 2_000 });
    expect(summary).not.toContain("hunter2");
    expect(summary).not.toContain("abc123");
  });

  it("honours an aborted signal", async () => {
    await expect(summarizer.summarize({ messages: FASTAPI_CONVERSATION, maxTokens: 2_000 }, AbortSignal.abort())).rejects.toThrow();
  });

  it("does not repeat a kept-verbatim ask as a later ask when the previous summary already names it", async () => {
    const previousSummary = "## Goal\n- Build the inventory service on port 8123\n## Progress\n### Done\n- ran `make`";
    const summary = await summarizer.summarize({
      messages: [{ role: "assistant", content: "Running the build again." }],
      maxTokens: 2_000,
      previousSummary,
      goalContext: ["Build the inventory service on  port 8123"],
    });
    expect(section(summary, "## Goal")).toBe("- Build the inventory service on port 8123");
  });
});


describe("ExtractiveSummarizer on what a session names", () => {
  it("lists the files and folders a command names, and folders from the agent's text, beside the files tools acted on", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Find where the sessions are kept." },
      { role: "assistant", content: "Looking under ~/.claude/projects/ first.", tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: "sed -n '40,110p' pkg/utils/watch_agents.go && ls /mnt/c/python/cctrace" }) } }] },
      { role: "tool", tool_call_id: "c1", content: "func watch() {}" },
    ];
    const files = section(await summarizer.summarize({ messages, maxTokens: 2_000 }), "## Relevant Files");
    expect(files).toContain("- pkg/utils/watch_agents.go — in a command");
    expect(files).toContain("- /mnt/c/python/cctrace — in a command");
    expect(files).toContain("- ~/.claude/projects/ — mentioned");
  });

  it("reads a text-action agent's fenced commands as the commands it ran, and their observations' errors", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Solve the crypto challenge in the release binary." },
      { role: "assistant", content: "Let me check the file type.\n```\nfile release\n```" },
      { role: "user", content: "release: ELF 64-bit LSB executable" },
      { role: "assistant", content: "Now decompile the hash function.\n```\ndecompile release --function_name _hash\n```" },
      { role: "user", content: "Your proposed edit has introduced new syntax error(s). Please read this error message carefully" },
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(section(summary, "### Done")).toContain("ran `file release`");
    expect(section(summary, "### Done")).toContain("ran `decompile release --function_name _hash`");
    expect(summary).toContain("Your proposed edit has introduced new syntax error(s)");
  });
  it("names bare project files (go.sum, .gitignore), dotted files, and short rooted folders (~/.claude, /tmp), not slash commands", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Bump Go, keep go.sum in step, add the binary to .gitignore, check /Users/sean/src/app/.goreleaser.yml and clean ~/.claude and /tmp. Then /compress." },
    ];
    const files = section(await summarizer.summarize({ messages, maxTokens: 2_000 }), "## Relevant Files");
    for (const path of ["go.sum", ".gitignore", "/Users/sean/src/app/.goreleaser.yml", "~/.claude", "/tmp"]) expect(files).toContain(`- ${path} — named by the user`);
    expect(files).not.toContain("/compress");
  });

  it("lists the files a subagent's report names as mentioned", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Explore how sessions are stored." },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "Task", arguments: JSON.stringify({ prompt: "map the storage" }) } }] },
      { role: "tool", tool_call_id: "t1", content: "Sessions live in ~/.claude/projects/ as agent-aaa82e3.jsonl files; the index is history.jsonl." },
    ];
    const files = section(await summarizer.summarize({ messages, maxTokens: 2_000 }), "## Relevant Files");
    expect(files).toContain("- agent-aaa82e3.jsonl — mentioned");
    expect(files).toContain("- history.jsonl — mentioned");
  });

  it("records the failure of a command that reads files: its exit status, or the program's own complaint", async () => {
    const call = (id: string, command: string): ChatMessage => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command }) } }] });
    const messages: ChatMessage[] = [
      { role: "user", content: "Copy the session and check it." },
      call("c1", "cat ~/.claude/a.jsonl | sed 's|x|y|' > ~/.claude/b.jsonl"),
      { role: "tool", tool_call_id: "c1", content: "Exit code 1\n/bin/bash: line 1: : No such file or directory" },
      call("c2", "head -1 ~/.claude/b.jsonl"),
      { role: "tool", tool_call_id: "c2", content: "head: cannot open '/home/jim/.claude/b.jsonl' for reading: No such file or directory" },
      call("c3", "cat notes.md"),
      { role: "tool", tool_call_id: "c3", content: "# Notes\nError: this line is the file's content, not a failure" },
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(summary).toContain("/bin/bash: line 1: : No such file or directory");
    expect(summary).toContain("head: cannot open '/home/jim/.claude/b.jsonl' for reading: No such file or directory");
    expect(summary).not.toContain("this line is the file's content");
  });

  it("records a file editor's refusal, the message under its bare ERROR header, for views and edits alike", async () => {
    const edit = (id: string, args: Record<string, string>): ChatMessage => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "str_replace_editor", arguments: JSON.stringify(args) } }] });
    const messages: ChatMessage[] = [
      { role: "user", content: "Fix the menu scroll bug." },
      edit("e1", { command: "view", path: "/workspace/app/src/Menu.test.ts" }),
      { role: "tool", tool_call_id: "e1", content: "ERROR:\nInvalid `path` parameter: /workspace/app/src/Menu.test.ts. The path /workspace/app/src/Menu.test.ts does not exist." },
      edit("e2", { command: "str_replace", path: "/workspace/app/src/Menu.ts" }),
      { role: "tool", tool_call_id: "e2", content: "ERROR:\nParameter `old_str` is required for command: str_replace." },
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(summary).toContain("Invalid `path` parameter: /workspace/app/src/Menu.test.ts. The path");
    expect(summary).toContain("Parameter `old_str` is required for command: str_replace.");
    expect(summary).not.toMatch(/Error seen: ERROR:\s*$/m);
  });

  it("records an exception a script printed with its stack trace even though it exited 0", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Reproduce the SSR bug." },
      { role: "assistant", content: null, tool_calls: [{ id: "r1", type: "function", function: { name: "execute_bash", arguments: JSON.stringify({ command: "node repro.mjs" }) } }] },
      { role: "tool", tool_call_id: "r1", content: "Error: On-the-fly template compilation is not supported in the ESM build\n    at ssrCompile (file:///app/server.js:559:11)\n[The command completed with exit code 0.]" },
    ];
    expect(await summarizer.summarize({ messages, maxTokens: 2_000 })).toContain("Error: On-the-fly template compilation is not supported in the ESM build");
  });

  it("reads a cleared output's evidence within the agent's bound: the summary model's longer share does not crowd out actions", async () => {
    const errors = Array.from({ length: 12 }, (_, i) => `pkg/cmd/resume.go:${270 + i}:14: Error return value of \`fmt.Fprintln\` is not checked (errcheck)`);
    const messages: ChatMessage[] = [
      { role: "user", content: "Make the linter pass." },
      { role: "assistant", content: null, tool_calls: [{ id: "l1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: "golangci-lint run ./..." }) } }] },
      { role: "tool", tool_call_id: "l1", content: `[Old tool output cleared to save context space] [bash] ran \`golangci-lint run ./...\` -> exit 1, 80 lines output\n${errors.join("\n")}` },
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(summary).toContain(errors[0]!);
    expect(summary).not.toContain(errors[5]!);
  });
});
