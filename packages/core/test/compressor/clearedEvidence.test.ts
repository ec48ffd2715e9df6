import { describe, expect, it } from "vitest";
import { pruneOldToolResults } from "../../src/compressor/pruneToolOutputs.js";
import { importMiniSweAgent } from "../../src/importers/miniSweAgent.js";
import { boundedEvidence, KEPT_EVIDENCE_CHARS } from "../../src/compressor/clearedEvidence.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../../src/messages/prunedOutput.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { longOutput, system, toolTurn, user } from "./fixtures.js";

/** The cleared form of one tool output, pruned as an old output of a small conversation. */
function cleared(name: string, args: Record<string, unknown>, output: string, flagged = false): string {
  const [a, r] = toolTurn(name, args, output);
  const result: ChatMessage = flagged ? ({ ...r, is_error: true } as ChatMessage) : r;
  const { messages } = pruneOldToolResults([system("s"), user("go"), a, result, user("next")], { protectedFrom: 4 });
  return String(messages[3]!.content);
}

/** The lines below the descriptor, all together. */
function evidenceChars(text: string): number {
  return text.split("\n").slice(1).reduce((sum, line) => sum + line.length, 0);
}

const PYTEST_FAILURE = [
  "============================= test session starts ==============================",
  longOutput("collected", 12),
  "________________________________ test_create_user ________________________________",
  "    def test_create_user(client):",
  ">       assert response.status_code == 201",
  "E       assert 422 == 201",
  "tests/test_api.py:41: AssertionError",
  "=========================== short test summary info ============================",
  "FAILED tests/test_api.py::test_create_user - assert 422 == 201",
  "FAILED tests/test_api.py::test_delete_user - KeyError: 'id'",
  "========================= 2 failed, 8 passed in 0.52s =========================",
].join("\n");

describe("a pruned tool output keeps its evidence", () => {
  it("a pruned failing test run keeps its exit status, the failing tests' names and the assertion", () => {
    const text = cleared("bash", { command: "pytest tests/" }, `Exit code 1\n${PYTEST_FAILURE}`);
    expect(text.startsWith(`${PRUNED_TOOL_PLACEHOLDER} [bash] ran \`pytest tests/\` -> exit 1,`)).toBe(true);
    expect(text).toContain("\nFAILED tests/test_api.py::test_create_user - assert 422 == 201");
    expect(text).toContain("\nFAILED tests/test_api.py::test_delete_user");
    // then pytest's assertion detail, whitespace collapsed
    expect(text).toContain("\nE assert 422 == 201");
  });

  it("a pruned mini-swe-agent observation with <returncode>1</returncode> shows exit 1 and the traceback's last line", () => {
    const output = `<returncode>1</returncode>\n<output>\n${longOutput("log", 6)}\nTraceback (most recent call last):\n  File "/testbed/repro.py", line 3, in <module>\n    main()\nValueError: field 'when' must be a datetime\n</output>`;
    const text = cleared("bash", { command: "python repro.py" }, output);
    expect(text.split("\n")[0]).toContain("ran `python repro.py` -> exit 1,");
    expect(text).toContain("\nValueError: field 'when' must be a datetime");
  });

  it("a mini-swe-agent run imported from its trajectory keeps each pruned observation's exit status and error", () => {
    const observation = (code: number, body: string) => ({ role: "user", content: `<returncode>${code}</returncode>\n<output>\n${body}\n</output>` });
    const trajectory = {
      trajectory_format: "mini-swe-agent-1.1",
      messages: [
        { role: "system", content: "You are a helpful assistant that can interact with a computer." },
        { role: "user", content: "Fix the date parsing bug in src/dates.py." },
        { role: "assistant", content: "Run the tests.\n```bash\npytest -q tests/test_dates.py\n```", extra: { actions: [{ command: "pytest -q tests/test_dates.py" }] } },
        observation(1, `${longOutput("tests/test_dates.py::test_case", 5)}\nFAILED tests/test_dates.py::test_iso_week - ValueError: week 53 out of range\n1 failed, 5 passed in 0.12s`),
        { role: "assistant", content: "Look at the file.\n```bash\ncat src/dates.py\n```", extra: { actions: [{ command: "cat src/dates.py" }] } },
        observation(0, longOutput("def parse", 8)),
        { role: "user", content: "Also keep the old API." },
      ],
    };
    const { messages } = importMiniSweAgent(JSON.stringify(trajectory));
    const { messages: out, cleared: count } = pruneOldToolResults(messages, { protectedFrom: messages.length - 1 });
    expect(count).toBe(2);
    const texts = out.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(texts[0]!.split("\n")[0]).toContain("ran `pytest -q tests/test_dates.py` -> exit 1,");
    expect(texts[0]).toContain("\nFAILED tests/test_dates.py::test_iso_week - ValueError: week 53 out of range");
    expect(texts[1]).toMatch(/^\[Old tool output cleared to save context space\] \[bash\] ran `cat src\/dates.py` -> exit 0, \d+ lines output$/);
  });

  it("a comparison whose files differ keeps its exit status and no evidence: what it printed is the difference", () => {
    const difference = `Exit code 1\ndiff --git a/src/a.ts b/src/a.ts\n${longOutput("+ line", 6)}\n+ERROR: this is content\n+  throw new Error("added");`;
    expect(cleared("bash", { command: "git diff --exit-code src/a.ts" }, difference)).toMatch(/-> exit 1, \d+ lines output$/);
  });

  it("reads the exit status every runner writes", () => {
    const body = longOutput("line", 5);
    const shapes: Array<[string, string]> = [
      ["Claude Code", `Exit code 2\n${body}`],
      ["Codex CLI", `Exit code: 2\nWall time: 0.4 seconds\nOutput:\n${body}`],
      ["Codex CLI (older)", `${body}\nProcess exited with code 2`],
      ["OpenHands", `${body}\n[The command completed with exit code 2.]`],
      ["Gemini CLI", `Command: make\nDirectory: (root)\nStdout: ${body}\nStderr: (empty)\nError: (none)\nExit Code: 2`],
      ["mini-swe-agent", `<returncode>2</returncode>\n<output>\n${body}\n</output>`],
      ["SWE-agent", `${body}\n///PROCESS-DONE:2:PROCESS-DONE///`],
      ["GitHub Actions", `${body}\nError: Process completed with exit code 2.`],
      ["JSON metadata", `{"output": "${body.replace(/\n/g, "\\n")}", "metadata": {"exit_code": 2}}`],
    ];
    for (const [runner, output] of shapes) expect(cleared("bash", { command: "make" }, output).split("\n")[0], runner).toContain("-> exit 2,");
  });

  it("a failed command without a known error line keeps the program's own complaint", () => {
    const usage = cleared("bash", { command: "git frobnicate" }, `Exit code 1\nusage: git [--version] [--help] [-C <path>] <command> [<args>]\n${longOutput("option", 4)}`);
    expect(usage).toContain("\nusage: git [--version] [--help] [-C <path>] <command> [<args>]");
    const last = cleared("bash", { command: "./deploy.sh" }, `<returncode>3</returncode>\n<output>\n${longOutput("step", 4)}\ndeploy: no target configured for staging\n</output>`);
    expect(last.split("\n").slice(1)).toEqual(["deploy: no target configured for staging"]);
  });

  it("a refused SWE-agent edit keeps the linter's finding below the refusal", () => {
    const output = `Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent\n\nThis is how your edit would have looked if applied\n${longOutput("code", 8)}`;
    expect(cleared("edit", { replace: "x" }, output)).toContain("\n- E999 IndentationError: unexpected indent");
  });

  it("a successful read stays a one-line descriptor, error-looking content and all", () => {
    const source = `Exit code 0\n${longOutput("def", 6)}\nraise ValueError("bad value")\nerror: not really an error`;
    for (const args of [{ command: "cat src/app.py" }, { command: "sed -n 1,80p src/app.py" }, { command: "grep -rn Error src" }]) {
      expect(cleared("bash", args, source)).not.toContain("\n");
    }
    expect(cleared("str_replace_editor", { command: "view", path: "/w/src/app.py" }, `${longOutput("def", 6)}\nValueError: bad value`)).not.toContain("\n");
  });

  it("the evidence of one output stays within about 300 characters, however many errors it printed", () => {
    const errors = Array.from({ length: 40 }, (_, i) => `src/module${i}/file${i}.ts(${i + 1},5): error TS2322: Type 'string' is not assignable to type 'number' in a long explanation`);
    const text = cleared("bash", { command: "npx tsc --noEmit" }, `Exit code 2\n${errors.join("\n")}`);
    expect(text.split("\n").length).toBeGreaterThan(1);
    expect(evidenceChars(text)).toBeLessThanOrEqual(KEPT_EVIDENCE_CHARS);
    expect(text).toContain("\nsrc/module0/file0.ts(1,5): error TS2322");
  });

  it("puts failing tests' lines first and cuts the line that does not fit", () => {
    const kept = boundedEvidence(["x".repeat(250), "FAILED tests/a.py::test_a", "y".repeat(100)]);
    expect(kept[0]).toBe("FAILED tests/a.py::test_a");
    expect(kept[1]).toBe(`${"x".repeat(199)}…`);
    expect(kept.slice(1).join("").length).toBeLessThanOrEqual(KEPT_EVIDENCE_CHARS - kept[0]!.length);
    expect(kept).toHaveLength(3);
  });
});

describe("a coloured terminal output", () => {
  it("keeps its error lines as the program wrote them, without the colour codes, when cleared", () => {
    const output = `\u001b[0m\u001b[1m\u001b[38;5;9merror[E0308]\u001b[0m\u001b[0m\u001b[1m: mismatched types\u001b[0m\n${"   Compiling crate v0.1.0\n".repeat(20)}\u001b[1m\u001b[31merror\u001b[0m: could not compile \`parser\`\nExit code 101`;
    const calls: ChatMessage[] = [
      { role: "assistant", content: "", tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: "cargo build" }) } }] },
      { role: "tool", tool_call_id: "c", content: output },
      { role: "user", content: "next" },
    ];
    const cleared = String(pruneOldToolResults(calls, { protectedFrom: 2 }).messages[1]!.content);
    expect(cleared).toContain("error[E0308]: mismatched types");
    expect(cleared).toContain("error: could not compile `parser`");
    expect(cleared).not.toContain("\u001b");
    expect(cleared.split("\n")[0]).toContain("exit 101");
  });
});
