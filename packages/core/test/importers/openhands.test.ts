import { describe, expect, it } from "vitest";
import { importOpenHands, importOpenHandsRecords } from "../../src/importers/openhands.js";
import { TranscriptImportError } from "../../src/importers/types.js";
import { countRoles, expectValidConversation, rawFixture } from "./helpers.js";

const BASIC = "openhands/tests/runtime/trajs/basic.json";
const basicEvents = () => JSON.parse(rawFixture(BASIC)) as Record<string, unknown>[];

/** An eval-output JSONL with one record per event list. */
const evalJsonl = (...histories: unknown[][]) =>
  histories.map((history, i) => JSON.stringify({ instance_id: `repo__issue-${i}`, history })).join("\n") + "\n";

describe("importOpenHands", () => {
  it("turns an event list into user, assistant tool calls and tool results", () => {
    const { format, messages, warnings } = importOpenHands(rawFixture(BASIC), { fileName: "basic.json" });
    expect(format).toBe("openhands");
    expect(countRoles(messages)).toEqual({ user: 1, assistant: 2, tool: 1 });
    expect(messages[0]).toEqual({ role: "user", content: expect.stringMatching(/^Please create a simple 2048 game/) });
    expect(messages[1]).toMatchObject({
      role: "assistant",
      content: expect.stringMatching(/^I'll help you create a simple 2048 game/),
      tool_calls: [{ id: "toolu_017nBp7UfiGqyrA7j77HgtFP", function: { name: "str_replace_editor" } }],
    });
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: "toolu_017nBp7UfiGqyrA7j77HgtFP" });
    // the final `finish` call has no observation: reported, its text kept
    expect(warnings).toEqual(['basic.json: [3] (event id 5): tool call "toolu_01BUKu3B7nY574atNECkBiFk" (finish) has no result; left out of tool_calls']);
    expect(messages[3]).toEqual({ role: "assistant", content: expect.stringMatching(/^I've created a simple implementation/) });
    expectValidConversation(messages);
  });

  it("picks the longest record of an eval JSONL by default, and the one asked for", () => {
    const events = basicEvents();
    const text = evalJsonl(events.slice(0, 3), events);
    const longest = importOpenHands(text, { fileName: "output.jsonl" });
    expect(longest.messages).toEqual(importOpenHands(rawFixture(BASIC)).messages);
    expect(longest.warnings[0]).toBe("output.jsonl: imported record 1 (repo__issue-1) of 2, 4 events, the longest; pass record to choose another");
    const first = importOpenHands(text, { fileName: "output.jsonl", record: 0 });
    expect(first.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expectValidConversation(first.messages);
  });

  it("returns every record of an eval JSONL with its index and instance id", () => {
    const events = basicEvents();
    const results = importOpenHandsRecords(evalJsonl(events.slice(0, 3), events));
    expect(results.map((r) => [r.record, r.instanceId, r.messages.length])).toEqual([
      [0, "repo__issue-0", 3],
      [1, "repo__issue-1", 4],
    ]);
    for (const r of results) expectValidConversation(r.messages);
  });

  it("fails naming the file when the record does not exist", () => {
    const text = evalJsonl(basicEvents());
    expect(() => importOpenHands(text, { fileName: "o.jsonl", record: 5 })).toThrow(TranscriptImportError);
    expect(() => importOpenHands(text, { fileName: "o.jsonl", record: 5 })).toThrow("o.jsonl: record 5 does not exist (the file has 1 record(s), numbered from 0)");
  });

  it("merges actions of one model response into one assistant message", () => {
    const response = {
      id: "resp-1",
      choices: [
        {
          message: {
            content: "Two commands.",
            tool_calls: [
              { id: "c1", function: { name: "execute_bash", arguments: '{"command":"ls"}' } },
              { id: "c2", function: { name: "execute_bash", arguments: '{"command":"pwd"}' } },
            ],
          },
        },
      ],
    };
    const meta = (id: string) => ({ function_name: "execute_bash", tool_call_id: id, model_response: response, total_calls_in_response: 2 });
    const events = [
      { id: 0, source: "agent", action: "system", args: { content: "You are OpenHands agent." } },
      { id: 1, source: "user", action: "message", args: { content: "look around" } },
      { id: 2, source: "agent", action: "run", args: { command: "ls" }, tool_call_metadata: meta("c1") },
      { id: 3, source: "agent", action: "run", args: { command: "pwd" }, tool_call_metadata: meta("c2") },
      { id: 4, source: "agent", observation: "run", content: "a.txt", cause: 2, tool_call_metadata: meta("c1") },
      { id: 5, source: "agent", observation: "run", content: "/workspace", cause: 3, tool_call_metadata: meta("c2") },
      { id: 6, source: "agent", observation: "error", content: "Parameter 'command' is expected to be one of [...]" },
      { id: 7, source: "environment", observation: "agent_state_changed", content: "" },
    ];
    const { messages, warnings } = importOpenHands(JSON.stringify(events));
    expect(warnings).toEqual([]);
    expect(messages).toEqual([
      { role: "system", content: "You are OpenHands agent." },
      { role: "user", content: "look around" },
      {
        role: "assistant",
        content: "Two commands.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "execute_bash", arguments: '{"command":"ls"}' } },
          { id: "c2", type: "function", function: { name: "execute_bash", arguments: '{"command":"pwd"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
      { role: "tool", tool_call_id: "c2", content: "/workspace" },
      { role: "user", content: "Parameter 'command' is expected to be one of [...]" },
    ]);
    expectValidConversation(messages);
  });

  it("reports JSONL lines that are not records and fails when none is", () => {
    const text = "not json\n" + evalJsonl(basicEvents());
    expect(importOpenHands(text, { fileName: "o.jsonl" }).warnings[0]).toMatch(/^o\.jsonl:1: invalid JSON/);
    expect(() => importOpenHands('{"a": 1}\n', { fileName: "o.jsonl" })).toThrow(/^o\.jsonl: no OpenHands event list/);
  });
});
