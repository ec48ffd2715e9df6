import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hintedNumber, reportedExit, REPORTED_EXIT, visibleExitCode, VISIBLE_EXIT, type HintedPatterns } from "../../src/facts/exitStatus.js";

/** What hintedNumber must equal: each pattern run over the whole text from its start, in order. */
function naiveNumber(text: string, set: HintedPatterns): number | undefined {
  for (const pattern of set.patterns) {
    const match = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(text);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

/** Text made of the pieces exit statuses are written with, and of what surrounds them. */
const exitishText = fc
  .array(
    fc.oneof(
      fc.constantFrom("exit", "Exit", "EXIT", "exit code", "Exit code", "exit status", "exit_code", "exitCode", "returncode", "return code", "RETURN"),
      fc.constantFrom("exited", "failed with", "Process", "Command", "process", "command", " with ", "code", "status", "ed", "[The command completed with exit code ", "[Command finished with exit code ", ".]", "]"),
      fc.constantFrom(" ", ": ", ":", "=", "\n", '"', "'", "-", "1", "0", "127", "4096", "x", "reexit", "_"),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(""));

describe("exit statuses", () => {
  it("finds what running every pattern from the start finds, though it starts at the first keyword", () => {
    fc.assert(
      fc.property(exitishText, (text) => {
        expect(hintedNumber(text, REPORTED_EXIT)).toBe(naiveNumber(text, REPORTED_EXIT));
        expect(hintedNumber(text, VISIBLE_EXIT)).toBe(naiveNumber(text, VISIBLE_EXIT));
      }),
      { numRuns: 5_000 },
    );
  });

  it("reads the strict forms for the error facts and the lenient ones for descriptors", () => {
    expect(reportedExit("Exit code 127\nzsh: command not found: foo")).toBe(127);
    expect(reportedExit('{"stdout": "", "exit_code": 2}')).toBe(2);
    expect(reportedExit("the build Process exited with code 1")).toBe(1);
    expect(reportedExit("Command failed with status 3")).toBe(3);
    expect(reportedExit("ok\nExit code: 0")).toBe(0);
    expect(reportedExit("bash: foo: command not found\n[The command completed with exit code 127.]")).toBe(127);
    expect(reportedExit("ok\n[Command finished with exit code 0]")).toBe(0);
    expect(reportedExit("it will exit 1 later")).toBeUndefined();
    expect(visibleExitCode("it will exit 1 later")).toBe(1);
    expect(visibleExitCode("RETURN CODE = 4")).toBe(4);
    expect(visibleExitCode("all good")).toBeUndefined();
  });

  it("reads only the ends of a long output, the end first for descriptors", () => {
    const middle = "x".repeat(5_000);
    expect(reportedExit(`Exit code 1\n${middle}`)).toBe(1);
    expect(reportedExit(`${"y".repeat(500)}\nExit code 5\n${middle}`)).toBeUndefined();
    expect(visibleExitCode(`exit 3\n${middle}\nexit code: 4`)).toBe(4);
  });
});
