/**
 * The eval's own detectors on snippets of the corpus transcripts (../shared/corpus, SOURCES.md): Claude
 * Code sessions of jimmc414/cctrace (MIT) and DRMacIver/claude-reliability (MIT), SpecStory sessions of
 * specstoryai/getspecstory (Apache-2.0), SWE-agent trajectories of princeton-nlp/SWE-agent (MIT) and
 * OpenHands runs of All-Hands-AI/OpenHands and OpenHands/software-agent-sdk (MIT). Short quotes, kept as
 * recorded.
 */
import { describe, expect, it } from "vitest";
import { distinctiveCommand, textAction } from "../../../src/eval/detectors/commands.js";
import { errorLines, failedExit } from "../../../src/eval/detectors/errors.js";
import { exitAnswersNo, isReadCommand } from "../../../src/eval/detectors/commands.js";
import { identifiersIn } from "../../../src/eval/detectors/identifiers.js";
import { pathsIn } from "../../../src/eval/detectors/paths.js";
import { readToolCall } from "../../../src/eval/detectors/toolCall.js";
import { typedText, userAsk } from "../../../src/eval/detectors/userAsks.js";

describe("the eval's command detector", () => {
  it("skips the cd and the banners of a SpecStory script and keeps the step that acts, without its pipe", () => {
    const script = 'cd /Users/sean/Source/SpecStory/getspecstory/specstory-cli\ngo build ./... 2>&1 | head -5 && echo "=== BUILD OK ===" \ngo test ./...';
    expect(distinctiveCommand(script)).toBe("go build ./...");
  });

  it("keeps a quoted && or | inside the command and drops only the redirection", () => {
    expect(distinctiveCommand(`grep -n "reindexVersion = " pkg/cmd/reindex.go 2>/dev/null`)).toBe('grep -n "reindexVersion = " pkg/cmd/reindex.go');
    expect(distinctiveCommand(`git commit -m "fix a && b | c"`)).toBe('git commit -m "fix a && b | c"');
  });

  it("has no command for a script that only changes directory or echoes", () => {
    expect(distinctiveCommand("cd /repo\necho done")).toBeUndefined();
  });

  it("reads a text-format agent's action from its fenced block or <command> element", () => {
    expect(textAction("I will start by using `curl`.\n```\ncurl http://web.chal.csaw.io:8000\n```\n")).toBe("curl http://web.chal.csaw.io:8000");
    expect(textAction("Let's run it.\n<command>\npython reproduce.py\n</command>")).toBe("python reproduce.py");
    expect(textAction("No action here.")).toBeUndefined();
  });
});

describe("the eval's tool-call reader", () => {
  it("takes the script of a SpecStory Bash input from its fenced block after the description", () => {
    const reading = readToolCall("Bash", JSON.stringify({ input: "Run cmd and sessionindex tests\n\n```bash\ncd /Users/sean/Source/SpecStory/getspecstory/specstory-cli\ngo test ./pkg/cmd/ ./pkg/sessionindex/ 2>&1 | tail -20\n```" }));
    expect(distinctiveCommand(reading.script!)).toBe("go test ./pkg/cmd/ ./pkg/sessionindex/");
    expect(reading.showsContent).toBe(false);
  });

  it("takes a Codex CLI exec_command in backticks and knows sed -n shows file content", () => {
    const reading = readToolCall("exec_command", JSON.stringify({ input: "`sed -n '1,240p' docs/git-provenance/systems/cnotes.md`" }));
    expect(reading.script).toBe("sed -n '1,240p' docs/git-provenance/systems/cnotes.md");
    expect(reading.showsContent).toBe(true);
  });

  it("takes the file a Read, an apply_patch or a str_replace_editor names, and no command from the editor", () => {
    expect(readToolCall("Read", JSON.stringify({ input: "`./pkg/cmd/resume.go`" })).paths).toEqual(["./pkg/cmd/resume.go"]);
    expect(readToolCall("apply_patch", JSON.stringify({ input: "**Update: `docs/git-provenance/SYSTEM-SUMMARY.md`**\n\n```diff\n@@\n-x\n+y\n```" })).paths).toEqual(["docs/git-provenance/SYSTEM-SUMMARY.md"]);
    const editor = readToolCall("str_replace_editor", JSON.stringify({ command: "view", path: "hello.py", security_risk: "LOW" }));
    expect(editor).toEqual({ paths: ["hello.py"], showsContent: true });
  });
});

describe("the eval's error detector", () => {
  it("takes the final line of a Python traceback and a pytest failure", () => {
    const output = 'Traceback (most recent call last):\n  File "reproduce.py", line 3, in <module>\n    import foo\nModuleNotFoundError: No module named \'foo\'';
    expect(errorLines(output)).toEqual(["ModuleNotFoundError: No module named 'foo'"]);
    expect(errorLines("===== FAILURES =====\ntest_subtract - AssertionError: expected 5 but got None\nFAILED tests/test_math.py::test_subtract")).toEqual(["FAILED tests/test_math.py::test_subtract"]);
  });

  it("takes shell, compiler and tool errors as the corpus prints them", () => {
    expect(errorLines("/bin/bash: line 1: jq: command not found")).toEqual(["/bin/bash: line 1: jq: command not found"]);
    expect(errorLines("CMake Error at CMakeLists.txt:27 (find_package):\n  Could not find a package")).toEqual(["CMake Error at CMakeLists.txt:27 (find_package):"]);
    expect(errorLines("pkg/cmd/x.go:22:12: undefined: sessionindex.Open")).toEqual(["pkg/cmd/x.go:22:12: undefined: sessionindex.Open"]);
    expect(errorLines("<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>")).toEqual(["String to replace not found in file."]);
    expect(errorLines("ERROR:\nNo replacement was performed, old_str `x` did not appear verbatim")).toEqual(["No replacement was performed, old_str `x` did not appear verbatim"]);
  });

  it("does not read numbered file content or a clean run as errors", () => {
    expect(errorLines("574\tfunc (p *Provider) ListAgentChatSessions(projectPath string) ([]spi.SessionMetadata, error) {")).toEqual([]);
    expect(errorLines("ok  \tgithub.com/specstoryai/specstory-cli/pkg/cmd\t0.412s\n=== BUILD OK ===")).toEqual([]);
  });

  it("reads a non-zero exit from each runner and none from a zero exit", () => {
    expect(failedExit("Exit code 1\n/bin/bash: line 1: : No such file or directory")).toBe(1);
    expect(failedExit("Process exited with code 2\nOutput:")).toBe(2);
    expect(failedExit("[The command completed with exit code 1.]")).toBe(1);
    expect(failedExit("Hello World from Perl!///PROCESS-DONE:127:PROCESS-DONE///")).toBe(127);
    expect(failedExit("[Command finished with exit code 0]")).toBeUndefined();
    expect(failedExit("<returncode>2</returncode>\n<output>\nusage: slug.py [-h]\n</output>")).toBe(2);
    expect(failedExit("<returncode>0</returncode>\n<output>\n</output>")).toBeUndefined();
  });

  it("tells a command that acts from one that only reads, and a search's exit 1 from a failure", () => {
    expect(["npm test", "git commit -m x", "mv a b", "sed -i s/a/b/ f", "echo x > f", "find . -delete", "git branch -D old"].map(isReadCommand)).toEqual([false, false, false, false, false, false, false]);
    expect(["rg -n x src", "sed -n 1,20p f", "git status", "git -C repo log --oneline", "find . -name '*.ts'", "ls -la", "gh pr view 12"].map(isReadCommand)).toEqual([true, true, true, true, true, true, true]);
    expect([exitAnswersNo("rg -n x src", 1), exitAnswersNo("rg -n x src", 2), exitAnswersNo("test -f a", 1), exitAnswersNo("npm test", 1)]).toEqual([true, false, true, false]);
  });
});

describe("the eval's ask detector", () => {
  it("removes what Claude Code injects into a user turn", () => {
    expect(typedText("<system-reminder>Use tools.</system-reminder>fix the underscore path normalization bug")).toBe("fix the underscore path normalization bug");
    expect(userAsk("<command-name>/exit</command-name>", false)).toBeUndefined();
    expect(userAsk("[Request interrupted by user for tool use]", false)).toBeUndefined();
    expect(userAsk("uhh. I don't understand how to see it, preview just looks like: [Image #9]", false)).toBe("uhh. I don't understand how to see it, preview just looks like:");
  });

  it("takes no ask from a harness turn or from a text-format agent's observation", () => {
    expect(userAsk("Stop hook feedback:\nYou have uncommitted changes.", false)).toBeUndefined();
    expect(userAsk("Hello World from Perl!///PROCESS-DONE:0:PROCESS-DONE///", true)).toBeUndefined();
    expect(userAsk("Let's update the version everywhere to 1.25.6", false)).toBe("Let's update the version everywhere to 1.25.6");
  });
});

describe("the eval's path detector", () => {
  it("takes rooted, relative and bare file paths from prose, with @mentions and line numbers normalized", () => {
    expect(pathsIn("read @docs/SESSION-PORTABILITY.md task to follow")).toEqual(["docs/SESSION-PORTABILITY.md"]);
    expect(pathsIn("Look at the GH release workflow in ../intent/ and ./pkg/cmd/resume.go:42")).toEqual(["../intent/", "pkg/cmd/resume.go"]);
    expect(pathsIn("The file is at /mnt/c/python/cctrace/export_claude_session.py, see hello.py.")).toEqual(["/mnt/c/python/cctrace/export_claude_session.py", "hello.py"]);
  });

  it("takes no URL, date, fraction or word pair", () => {
    expect(pathsIn("curl http://web.chal.csaw.io:8000/cgi-bin/file.pl on 06/18 and/or 1/2, e.g. node.js")).toEqual([]);
  });

  it("takes no slash command, sed expression or slash-joined word list, but a rooted folder and lowercase folders", () => {
    expect(pathsIn("run /login, grep for /func, then sed -e s/132b2f66/aaaa/g")).toEqual([]);
    expect(pathsIn("keys space/esc/q/enter and Gemini/Droid/DeepSeek/Cursor or Size/Mtime/NativePath")).toEqual([]);
    expect(pathsIn("wrote it to /tmp and read docs/analytics/provenance and /Users/sean/Source/SpecStory/lore")).toEqual(["/tmp", "docs/analytics/provenance", "/Users/sean/Source/SpecStory/lore"]);
  });
});

describe("the eval's identifier detector", () => {
  it("takes camelCase, PascalCase and snake_case names of five characters or more", () => {
    expect(identifiersIn("Call parse_header from TokenStream.nextToken, not Go or id_x")).toEqual(["parse_header", "TokenStream", "nextToken"]);
  });
});
