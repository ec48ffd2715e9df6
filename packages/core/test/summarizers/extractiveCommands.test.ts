import { describe, expect, it } from "vitest";
import { collapseRepeats, commandLabel, normalizeCommand, withoutCount } from "../../src/summarizers/extractiveCommands.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { ChatMessage } from "../../src/messages/schema.js";

describe("normalizeCommand", () => {
  it("drops a leading cd <dir> && so the command itself shows", () => {
    expect(normalizeCommand("cd /Users/sean/Source/SpecStory/getspecstory/specstory-cli && go test ./pkg/sessionindex/...")).toBe("go test ./pkg/sessionindex/...");
  });

  it("drops a leading cd <dir>; and chained cds, quoted dirs included", () => {
    expect(normalizeCommand('cd "/tmp/my dir"; cd sub && make build')).toBe("make build");
  });

  it("drops output plumbing at the end (2>&1, | tail -N)", () => {
    expect(normalizeCommand("go build ./... 2>&1 | tail -20")).toBe("go build ./...");
  });

  it("drops a cd on a line of its own before the command's first line", () => {
    expect(normalizeCommand("cd /Users/sean/Source/SpecStory/getspecstory/specstory-cli\ngofmt -w pkg/providers/cursorcli/provider.go\ngo build ./...")).toBe("gofmt -w pkg/providers/cursorcli/provider.go …");
    expect(normalizeCommand("cd /repo && \\\n  go vet ./...")).toBe("go vet ./...");
  });

  it("drops comment lines, echo banners, exports and sourced environments before the command, not an echo that writes a file", () => {
    expect(normalizeCommand('echo "=== File History - what are these files? ===" && head -5 ~/.claude/file-history/x@v1')).toBe("head -5 ~/.claude/file-history/x@v1");
    expect(normalizeCommand("export PYTHONPATH=src:$PYTHONPATH; source .venv/bin/activate && pytest -q tests/unit")).toBe("pytest -q tests/unit");
    expect(normalizeCommand("set -e\necho building\nmake all")).toBe("make all");
    expect(normalizeCommand('echo "print(1)" > hello.py && python hello.py')).toBe('echo "print(1)" > hello.py && python hello.py');
    expect(normalizeCommand("echoserver --port 80")).toBe("echoserver --port 80");
    expect(normalizeCommand("# Capture the signature before sync\npython3 - <<'PY'\nprint(1)\nPY")).toBe("python3 - <<'PY' …");
  });

  it("drops a silenced cd with a fallback before the command", () => {
    expect(normalizeCommand("cd /private/tmp/scratchpad 2>/dev/null || cd /tmp\ncat > fts_test.sql <<'EOF'\nSELECT 1;\nEOF")).toBe("cat > fts_test.sql <<'EOF' …");
    expect(normalizeCommand("cd /repo || exit 1; make test")).toBe("make test");
  });

  it("keeps a command that is only a cd", () => {
    expect(normalizeCommand("cd /repo")).toBe("cd /repo");
  });

  it("shows the first line of a multi-line command with a mark that more follows", () => {
    expect(normalizeCommand("cd /repo && python - <<'EOF'\nprint(1)\nEOF")).toBe("python - <<'EOF' …");
  });
});

describe("commandLabel", () => {
  it("cuts after the distinctive part, not inside the directory", () => {
    const label = commandLabel("cd /Users/sean/Source/SpecStory/getspecstory/specstory-cli && golangci-lint run ./pkg/cmd/... --fix --timeout 5m", 40);
    expect(label.startsWith("golangci-lint run ./pkg/cmd/")).toBe(true);
    expect(label.length).toBeLessThanOrEqual(40);
  });
});

describe("collapseRepeats", () => {
  it("collapses repeats into one item with a count, at the place of the last one", () => {
    expect(collapseRepeats(["ran `pytest -x`", "edited a.py", "ran `pytest -x`", "ran `pytest -x`", "ran `make`", "ran `pytest -x`"])).toEqual(["edited a.py", "ran `make`", "ran `pytest -x` (×4)"]);
  });

  it("adds the counts of items collapsed before", () => {
    expect(collapseRepeats(["ran `make` (×3)", "ran `make`"])).toEqual(["ran `make` (×4)"]);
    expect(withoutCount("ran `make` (×3)")).toEqual({ text: "ran `make`", count: 3 });
  });
});

describe("the extractive summary's commands", () => {
  it("shows a command run in a directory without its cd, repeats collapsed with a count", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: "Run the index tests until they pass" }];
    for (let i = 0; i < 4; i++) {
      messages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: "cd /Users/sean/Source/SpecStory/getspecstory/specstory-cli && go test ./pkg/sessionindex/" }) } }] });
      messages.push({ role: "tool", tool_call_id: `c${i}`, content: "ok pkg/sessionindex 0.4s" });
    }
    const summary = await new ExtractiveSummarizer().summarize({ messages, maxTokens: 2_000 });
    expect(summary).toContain("ran `go test ./pkg/sessionindex/` → ok pkg/sessionindex 0.4s (×4)");
    expect(summary).not.toContain("cd /Users/sean");
  });
});
