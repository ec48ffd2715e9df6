import { describe, expect, it } from "vitest";
import { isReadingCommand, parseToolArguments, readsContent, toolCallTarget } from "../../src/facts/toolCallTargets.js";

const json = (args: unknown) => JSON.stringify(args);

describe("toolCallTarget", () => {
  it("reads path and command arguments, and editor sub-commands next to a path", () => {
    expect(toolCallTarget("Edit", json({ file_path: "/repo/src/a.ts", old_string: "x" }))).toEqual({ paths: ["/repo/src/a.ts"], action: "edited" });
    expect(toolCallTarget("str_replace_editor", json({ command: "view", path: "/repo/b.py" }))).toEqual({ paths: ["/repo/b.py"], action: "read" });
    expect(toolCallTarget("Bash", json({ command: "go test ./...", description: "Run tests" }))).toEqual({ paths: [], action: "used by Bash", command: "go test ./..." });
    expect(toolCallTarget("shell", json({ command: ["bash", "-lc", "ls -la"] })).command).toBe("ls -la");
  });

  it("reads SpecStory's {input} text: the last code of a shell call, backticked paths, patch headers, key lists", () => {
    expect(toolCallTarget("Bash", json({ input: "Tidy go modules after go version bump\n\n`go mod tidy`" })).command).toBe("go mod tidy");
    expect(toolCallTarget("exec_command", json({ input: "`sed -n '1,200p' docs/RESEARCH-TASK.md`" })).command).toBe("sed -n '1,200p' docs/RESEARCH-TASK.md");
    expect(toolCallTarget("Bash", json({ input: "Build index\n\n```bash\ngawk '\n  /x/ { print }\n' f.md\n```" })).command).toBe("gawk '\n  /x/ { print }\n' f.md");
    expect(toolCallTarget("Read", json({ input: "`./pkg/cmd/search_tui.go`" }))).toEqual({ paths: ["./pkg/cmd/search_tui.go"], action: "read" });
    expect(toolCallTarget("apply_patch", json({ input: "**Update: `docs/SUMMARY.md`**\n\n```diff\n-a\n+b\n```" }))).toEqual({ paths: ["docs/SUMMARY.md"], action: "edited" });
    expect(toolCallTarget("ToolSearch", json({ input: "**Input:**\n\n- max_results: `5`\n- query: `select:TaskCreate`" }))).toEqual({ paths: [], action: "used by ToolSearch" });
    expect(toolCallTarget("Write", json({ input: "```md\n# Notes about `src/a.ts`\n```" })).paths).toEqual([]);
  });

  it("reads a Claude Code Bash script from its shell fence, not from a span inside it", () => {
    const script = "cat > /tmp/spike.py << 'PYEOF'\nprint(\"Ran `cc hello.c`\")\nnote = \"\\\\```c\\\\n```\"\nPYEOF\npython3 /tmp/spike.py";
    expect(toolCallTarget("Bash", json({ input: `Build the spike\n\n\`\`\`bash\n${script}\n\`\`\`` })).command).toBe(script);
  });

  it("reads a Codex exec_command's command from its first line, not from the fenced output below it", () => {
    const input = "`sed -n '1,220p' docs/aider.md`\n\n```\nChunk ID: 20d020\nProcess exited with code 0\nOutput:\n# Aider\n\n```bash\naider --commit\n```\n```";
    expect(toolCallTarget("exec_command", json({ input })).command).toBe("sed -n '1,220p' docs/aider.md");
    expect(toolCallTarget("exec_command", json({ input: "`rg -n foo src`\n\n```\nChunk ID: 9f\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\n" })).command).toBe("rg -n foo src");
  });

  it("keeps the command of a truncated argument whose code span was cut open", () => {
    expect(toolCallTarget("Bash", json({ input: "List files\n\n`ls -la /very/long/path...[truncated 300 chars]" })).command).toBe("ls -la /very/long/path...[truncated 300 chars]");
  });

  it("names nothing for arguments that are not a JSON object", () => {
    expect(toolCallTarget("Bash", "not json")).toEqual({ paths: [], action: "used by Bash" });
  });
});

describe("readsContent", () => {
  it("tells file reads, searches and reading commands from commands that run something", () => {
    expect(readsContent("Read", json({ file_path: "a.py" }))).toBe(true);
    expect(readsContent("Grep", json({ pattern: "Error" }))).toBe(true);
    expect(readsContent("Bash", json({ command: "cd /repo && cat log.txt" }))).toBe(true);
    expect(readsContent("Bash", json({ command: "pytest -q" }))).toBe(false);
    expect(isReadingCommand("git diff HEAD~1")).toBe(true);
    expect(isReadingCommand("npm test")).toBe(false);
  });
});

describe("toolCallTarget remembering the last call", () => {
  it("answers a repeated call the same and a changed call afresh", () => {
    const first = toolCallTarget("read_file", '{"path":"src/a.ts"}');
    expect(toolCallTarget("read_file", '{"path":"src/a.ts"}')).toEqual(first);
    expect(toolCallTarget("read_file", '{"path":"src/b.ts"}').paths).toEqual(["src/b.ts"]);
    expect(toolCallTarget("terminal", '{"path":"src/b.ts"}').paths).toEqual(["src/b.ts"]);
    expect(toolCallTarget("terminal", '{"command":"ls"}').command).toBe("ls");
    expect(parseToolArguments("[1]")).toBeUndefined();
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("not json")).toBeUndefined();
  });
});

describe("toolCallTarget's copies", () => {
  it("gives each caller a target it may change without changing the next caller's", () => {
    const first = toolCallTarget("edit_file", '{"path":"src/c.ts"}');
    first.paths.push("changed.ts");
    first.action = "changed";
    expect(toolCallTarget("edit_file", '{"path":"src/c.ts"}').paths).toEqual(["src/c.ts"]);
    expect(toolCallTarget("edit_file", '{"path":"src/c.ts"}').action).not.toBe("changed");
  });
});
