import { describe, expect, it } from "vitest";
import { askWords, commandKey, extractFacts, type Fact } from "../../src/eval/facts.js";
import { factSurvives, survivalByKind } from "../../src/eval/survival.js";
import { SUMMARY_END_MARKER, SUMMARY_PREFIX } from "../../src/messages/compactionMarker.js";
import type { ChatMessage } from "../../src/messages/schema.js";

function call(id: string, name: string, args: unknown) {
  return { id, type: "function" as const, function: { name, arguments: JSON.stringify(args) } };
}

const CONVERSATION: ChatMessage[] = [
  { role: "system", content: "You are a coding agent. See docs/SYSTEM.md." },
  { role: "user", content: "<system-reminder>Use tools.</system-reminder>Port the parser in src/parser.py to Rust and keep the tests green." },
  { role: "assistant", content: "I'll read src/parser.py first.", tool_calls: [call("c1", "Read", { file_path: "/repo/src/parser.py" })] },
  { role: "tool", tool_call_id: "c1", content: "def parse(text):\n    raise ValueError('x')\nValueError: not an error, file content" },
  { role: "assistant", content: "", tool_calls: [call("c2", "Bash", { command: "cargo build\n--release" }), call("c3", "Bash", { command: "pytest -q" })] },
  { role: "tool", tool_call_id: "c2", content: "error[E0308]: mismatched types\n --> src/lib.rs:4:18" },
  { role: "tool", tool_call_id: "c3", content: "Exit code 1\nsomething went wrong" },
  { role: "user", content: "[Request interrupted by user]" },
  { role: "assistant", content: "", tool_calls: [call("c4", "Edit", { file_path: "/repo/src/lib.rs" })] },
  { role: "tool", tool_call_id: "c4", content: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", is_error: true } as ChatMessage,
];

function byKind(facts: Fact[], kind: Fact["kind"]): string[] {
  return facts.filter((f) => f.kind === kind).map((f) => f.text);
}

describe("extractFacts", () => {
  const facts = extractFacts(CONVERSATION);

  it("takes paths from tool-call arguments and from user and assistant text, not from the system prompt or file contents", () => {
    expect(byKind(facts, "path")).toEqual(["src/parser.py", "/repo/src/parser.py", "/repo/src/lib.rs"]);
  });

  it("tells commands that act from reads: a build acts, a listing or a search only looks", () => {
    const facts = extractFacts([
      { role: "assistant", content: "", tool_calls: [call("a", "Bash", { command: "cd /repo && npm run build" }), call("b", "Bash", { command: "rg -n parse src" }), call("c", "Bash", { command: "git status" }), call("d", "Bash", { command: "git commit -m fix" }), call("e", "Bash", { command: "sed -n '1,40p' src/a.ts" }), call("f", "Bash", { command: "sed -i 's/a/b/' src/a.ts" }), call("g", "Bash", { command: "cat notes.txt > src/out.txt" })] },
    ]);
    expect(byKind(facts, "command")).toEqual(["npm run build", "git commit -m fix", "sed -i 's/a/b/' src/a.ts", "cat notes.txt > src/out.txt"]);
    expect(byKind(facts, "read")).toEqual(["rg -n parse src", "git status", "sed -n '1,40p' src/a.ts"]);
  });

  it("does not count a search that found nothing as an error, but does count its failure", () => {
    const facts = extractFacts([
      { role: "assistant", content: "", tool_calls: [call("a", "Bash", { command: "rg -n missing_name src" }), call("b", "Bash", { command: "test -f dist/index.js" }), call("c", "Bash", { command: "rg -n '(' src" })] },
      { role: "tool", tool_call_id: "a", content: "Exit code 1" },
      { role: "tool", tool_call_id: "b", content: "Exit code 1" },
      { role: "tool", tool_call_id: "c", content: "Exit code 2" },
    ]);
    expect(byKind(facts, "error")).toEqual(["rg -n '(' src → exit 2"]);
  });

  it("takes commands by their first line and the real errors of what they printed", () => {
    expect(byKind(facts, "command")).toEqual(["cargo build", "pytest -q"]);
    expect(byKind(facts, "error")).toEqual(["error[E0308]: mismatched types", "pytest -q → exit 1", "File has not been read yet. Read it first before writing to it."]);
  });

  it("takes the user's asks without injected notes or interrupts, checked by their distinctive words", () => {
    const asks = facts.filter((f) => f.kind === "ask");
    expect(asks.map((a) => a.text)).toEqual(["Port the parser in src/parser.py to Rust and keep the tests green."]);
    expect(asks[0]!.key).toBe("port parser rust tests green");
  });

  it("skips our summaries but counts a real ask that merely starts with the compaction tag", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: `${SUMMARY_PREFIX}\n\nGoal\n- port the lexer to Rust\n\n${SUMMARY_END_MARKER}` },
      { role: "user", content: "[CONTEXT COMPACTION] should be renamed to CONTEXT SUMMARY in the parser module docs" },
    ];
    const asks = extractFacts(messages).filter((f) => f.kind === "ask");
    expect(asks.map((f) => f.text)).toEqual(["[CONTEXT COMPACTION] should be renamed to CONTEXT SUMMARY in the parser module docs"]);
  });

  it("takes identifiers for the references the kept tail makes", () => {
    expect(extractFacts([{ role: "assistant", content: "Call parse_header from TokenStream.nextToken" }]).filter((f) => f.kind === "identifier").map((f) => f.text)).toEqual([
      "parse_header",
      "TokenStream",
      "nextToken",
    ]);
  });
});

describe("fact survival", () => {
  const path = (key: string): Fact => ({ kind: "path", text: key, key });

  it("finds a path as a whole token, also at the end of a longer path", () => {
    expect(factSurvives(path("a.py"), "- src/data.py — read")).toBe(false);
    expect(factSurvives(path("pkg/a.go"), "- /repo/pkg/a.go — edited")).toBe(true);
    expect(factSurvives(path("pkg/a.go"), "- pkg/a.golden — read")).toBe(false);
  });

  it("finds a path named as an @ mention, but not inside an e-mail address", () => {
    expect(factSurvives(path("../lore/"), "see @../lore/ and how we indexed")).toBe(true);
    expect(factSurvives(path("docs/x.md"), "mail me@docs/x.md")).toBe(false);
  });

  it("finds a path listed in a brace group as a shell expands it, and nothing the group does not name", () => {
    const text = "- pkg/cmd/{resume.go, search_tui.go} — edited\n- /repo/src/{a,b}.ts";
    expect(factSurvives(path("pkg/cmd/search_tui.go"), text)).toBe(true);
    expect(factSurvives(path("cmd/resume.go"), text)).toBe(true);
    expect(factSurvives(path("/repo/src/b.ts"), text)).toBe(true);
    expect(factSurvives(path("pkg/cmd/session_tui.go"), text)).toBe(false);
    expect(factSurvives(path("src/c.ts"), text)).toBe(false);
  });

  it("needs a failed command and its exit status on one line", () => {
    const exit: Fact = { kind: "error", text: "pytest -q → exit 1", key: "exit 1", anchor: "pytest -q" };
    expect(factSurvives(exit, "- ran `pytest -q` → exit 1")).toBe(true);
    expect(factSurvives(exit, "- ran `pytest -q`\n- ran `make` → exit 1")).toBe(false);
  });

  it("keeps an ask when half of its distinctive words remain", () => {
    const ask: Fact = { kind: "ask", text: "", key: askWords("Port the parser in src/parser.py to Rust and keep the tests green").join(" ") };
    expect(factSurvives(ask, "Goal: port the parser to Rust")).toBe(true);
    expect(factSurvives(ask, "Goal: a parser")).toBe(false);
  });

  it("counts survival per kind and lists what was lost", () => {
    const lost: Fact[] = [];
    const tally = survivalByKind(extractFacts(CONVERSATION), "ran `cargo build` → error[E0308]: mismatched types; read /repo/src/parser.py", lost);
    expect(tally.command).toEqual({ total: 2, kept: 1 });
    expect(tally.error).toEqual({ total: 3, kept: 1 });
    expect(tally.path).toEqual({ total: 3, kept: 2 });
    expect(lost.map((f) => f.text)).toContain("/repo/src/lib.rs");
  });

  it("identifies a command by its distinctive step, not the cd before it", () => {
    expect(commandKey("cd /repo && \\\n  make all")).toBe("make all");
  });

  it("finds a command written with the redirections its key leaves out", () => {
    const [fact] = extractFacts([{ role: "assistant", content: "", tool_calls: [call("a", "Bash", { command: "BEFORE=$(ls -1 ~/.cache/brain/ 2>/dev/null)" })] }]).filter((f) => f.kind === "command");
    expect(fact!.key).toBe("BEFORE=$(ls -1 ~/.cache/brain/)");
    expect(factSurvives(fact!, "Bash(command: BEFORE=$(ls -1 ~/.cache/brain/ 2>/dev/null))")).toBe(true);
    expect(factSurvives(fact!, "Bash(command: ls -1 ~/.cache/brain/)")).toBe(false);
  });
});
