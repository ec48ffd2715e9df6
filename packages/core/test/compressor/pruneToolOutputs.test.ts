import { describe, expect, it } from "vitest";
import { DUPLICATE_TOOL_OUTPUT_POINTER, pruneOldToolResults } from "../../src/compressor/pruneToolOutputs.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../../src/messages/prunedOutput.js";
import { describeToolOutput } from "../../src/compressor/toolOutputDescriptor.js";
import { visibleExitCode } from "../../src/facts/exitStatus.js";
import { truncateToolArguments } from "../../src/compressor/toolArguments.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { call, longOutput, result, system, toolTurn, user } from "./fixtures.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("phase 1: pruning old tool results", () => {
  it("clears a large old tool output to the placeholder followed by a descriptor, and a failure's last printed line below it", () => {
    const [a, r] = toolTurn("terminal", { command: "pytest" }, `${longOutput("test", 39)}\nexit code: 1`);
    const messages = [system("s"), user("run tests"), a, r, user("thanks")];
    const { messages: out, cleared } = pruneOldToolResults(messages, { protectedFrom: 4 });
    expect(cleared).toBe(1);
    const [descriptor, ...below] = String(out[3]!.content).split("\n");
    expect(descriptor).toBe(`${PRUNED_TOOL_PLACEHOLDER} [terminal] ran \`pytest\` -> exit 1, 40 lines output`);
    expect(below).toEqual([longOutput("test", 39).split("\n").pop()!.trim()]);
    expect(out[3]!.tool_call_id).toBe(r.tool_call_id);
  });

  it("keeps below the descriptor why a read failed and what a passing run printed with a stack trace, not a read's content", () => {
    const view = (output: string) => toolTurn("str_replace_editor", { command: "view", path: "/w/src/Menu.test.ts" }, output);
    const [va, vr] = view( `ERROR:\nInvalid \`path\` parameter: /w/src/Menu.test.ts. The path does not exist.\n${longOutput("hint", 8)}`);
    const [ca, cr] = view( `Here's the result of running \`cat -n\`:\nError: only content\n${longOutput("line", 20)}`);
    const [ra, rr] = toolTurn("execute_bash", { command: "node repro.mjs" }, `${longOutput("log", 10)}\nError: compilation is not supported\n    at ssrCompile (file:///w/server.js:5:1)\n[The command completed with exit code 0.]`);
    const { messages: out } = pruneOldToolResults([system("s"), user("go"), va, vr, ca, cr, ra, rr, user("next")], { protectedFrom: 8 });
    expect(String(out[3]!.content)).toContain("\nERROR: Invalid `path` parameter: /w/src/Menu.test.ts. The path does not exist.");
    expect(String(out[5]!.content)).not.toContain("only content");
    expect(String(out[7]!.content)).toContain("\nError: compilation is not supported");
  });

  it("names the key argument of file tools and the size of the output", () => {
    const text = describeToolOutput("read_file", JSON.stringify({ path: "tests/test_api.py" }), longOutput("x", 80, 40));
    expect(text).toBe("[read_file] `tests/test_api.py` -> 80 lines output (3.2 KB)");
    // a file tool whose `command` is its sub-command names the file it acted on
    const view = describeToolOutput("str_replace_editor", JSON.stringify({ command: "view", path: "/w/src/Menu.ts" }), longOutput("x", 30));
    expect(view).toBe("[str_replace_editor] view `/w/src/Menu.ts` -> 30 lines output (2.4 KB)");
    expect(describeToolOutput("execute_bash", JSON.stringify({ command: "cat /w/src/Menu.ts" }), "ok")).toBe("[execute_bash] ran `cat /w/src/Menu.ts` -> 2 chars output");
  });

  it("reads exit codes written in the common shapes", () => {
    expect(visibleExitCode('{"exit_code": 2, "output": "..."}')).toBe(2);
    expect(visibleExitCode("bash: foo: command not found\nexited with code 127")).toBe(127);
    expect(visibleExitCode("all good")).toBeUndefined();
  });

  it("leaves tool outputs of 200 characters or less, and everything in the protected tail, untouched", () => {
    const [a1, r1] = toolTurn("terminal", { command: "ls" }, "x".repeat(200));
    const [a2, r2] = toolTurn("terminal", { command: "cat big" }, "y".repeat(5_000));
    const messages = [user("go"), a1, r1, a2, r2];
    const { messages: out, cleared } = pruneOldToolResults(messages, { protectedFrom: 3 });
    expect(cleared).toBe(0);
    expect(out[2]).toBe(r1);
    expect(out[4]).toBe(r2);
  });

  it("replaces an older identical output with a pointer and keeps the newest copy", () => {
    const same = longOutput("git status", 20);
    const [a1, r1] = toolTurn("terminal", { command: "git status" }, same);
    const [a2, r2] = toolTurn("terminal", { command: "git status" }, same);
    const messages = [user("go"), a1, r1, a2, r2, user("again")];
    const { messages: out, dedup, cleared } = pruneOldToolResults(messages, { protectedFrom: 3 });
    expect(dedup).toBe(1);
    expect(cleared).toBe(0);
    expect(String(out[2]!.content).startsWith(`${PRUNED_TOOL_PLACEHOLDER} ${DUPLICATE_TOOL_OUTPUT_POINTER}`)).toBe(true);
    expect(out[4]).toBe(r2);
  });

  it("truncates long JSON tool-call arguments so they stay valid JSON", () => {
    const a = call("write_file", { path: "src/big.ts", content: "z".repeat(10_000), mode: 420 });
    const messages = [user("write it"), a, result(a, "ok"), user("next")];
    const { messages: out, truncatedArguments } = pruneOldToolResults(messages, { protectedFrom: 3 });
    expect(truncatedArguments).toBe(1);
    const args = out[1]!.tool_calls![0]!.function.arguments;
    expect(args.length).toBeLessThanOrEqual(2_000);
    const parsed = JSON.parse(args) as Record<string, unknown>;
    expect(parsed.path).toBe("src/big.ts");
    expect(parsed.mode).toBe(420);
    expect(String(parsed.content)).toContain("[truncated");
  });

  it("cuts invalid JSON arguments as text", () => {
    const cut = truncateToolArguments("{not json " + "q".repeat(5_000), 2_000);
    expect(cut.startsWith("{not json ")).toBe(true);
    expect(cut.length).toBeLessThan(2_100);
    expect(cut).toContain("[truncated");
  });

  it("never mutates its input and reuses untouched messages", () => {
    const [a, r] = toolTurn("terminal", { command: "make" }, longOutput("make", 50));
    const messages: ChatMessage[] = deepFreeze([system("s"), user("build"), a, r, user("ok")]);
    const { messages: out } = pruneOldToolResults(messages, { protectedFrom: 4 });
    expect(out).not.toBe(messages);
    expect(out[0]).toBe(messages[0]);
    expect(out[2]).toBe(messages[2]);
    expect(out[3]).not.toBe(messages[3]);
    expect(messages[3]!.content).toBe(r.content);
  });
  it("hands an output still at its index the cleared copy an earlier pruning of the conversation made", () => {
    const [a1, r1] = toolTurn("terminal", { command: "pytest" }, `${longOutput("test", 39)}\nexit code: 1`);
    const [a2, r2] = toolTurn("terminal", { command: "make" }, longOutput("build", 30));
    const first = pruneOldToolResults([system("s"), user("go"), a1, r1, a2, r2, user("next")], { protectedFrom: 6 });
    const grown = [system("s"), user("go"), a1, r1, a2, r2, user("next"), ...toolTurn("terminal", { command: "ls" }, "z".repeat(400)), user("more")];
    const again = pruneOldToolResults(grown, { protectedFrom: 9, memo: first.memo });
    expect(again.messages[3]).toBe(first.messages[3]);
    expect(again.messages[5]).toBe(first.messages[5]);
    expect(again.messages[8]!.content).toMatch(/^\[Old tool output cleared/);
    // without the memo the copies are made again (equal, not the same objects)
    const fresh = pruneOldToolResults(grown, { protectedFrom: 9 });
    expect(fresh.messages[3]).toEqual(first.messages[3]);
    expect(fresh.messages[3]).not.toBe(first.messages[3]);
  });

  it("describes an output again when another message sits at its index or its call changed", () => {
    const [a, r] = toolTurn("terminal", { command: "pytest" }, `${longOutput("test", 39)}\nexit code: 1`);
    const first = pruneOldToolResults([system("s"), user("go"), a, r, user("next")], { protectedFrom: 4 });
    const other = { ...r, content: `${longOutput("other", 12)}\nexit code: 0` };
    const replaced = pruneOldToolResults([system("s"), user("go"), a, other, user("next")], { protectedFrom: 4, memo: first.memo });
    expect(replaced.messages[3]!.content).toContain("exit 0, 13 lines output");
    const renamed = call("shell", { command: "pytest" }, r.tool_call_id);
    const recalled = pruneOldToolResults([system("s"), user("go"), renamed, r, user("next")], { protectedFrom: 4, memo: first.memo });
    expect(recalled.messages[3]!.content).toContain("[shell] ran `pytest`");
    // the same output answering another call: its copy carries that call's id
    const [a2, r2] = [call("terminal", { command: "pytest" }, "call_again"), { ...r, tool_call_id: "call_again" }];
    const moved = pruneOldToolResults([system("s"), user("go"), a2, r2, user("next")], { protectedFrom: 4, memo: first.memo });
    expect(moved.messages[3]!.tool_call_id).toBe("call_again");
  });
});
