import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importTranscript } from "../../src/importers/index.js";
import { countRoles, countToolCalls, expectValidConversation, FIXTURES_DIR } from "./helpers.js";

const COPILOT = "specstory-vscode-copilot.md";
const CURSOR = "specstory-cursor.md";

function handwritten(name: string): string {
  return readFileSync(resolve(FIXTURES_DIR, "handwritten", name), "utf8");
}

describe("SpecStory from VS Code Copilot (v2.1.0, tags on their own lines)", () => {
  it("reads every tool block whose <tool-use> and <details> tags stand on separate lines", () => {
    const result = importTranscript(handwritten(COPILOT), { fileName: COPILOT });
    expect(result.format).toBe("specstory");
    expectValidConversation(result.messages);
    expect(countToolCalls(result.messages)).toBe(3);
    expect(countRoles(result.messages)).toEqual({ user: 2, assistant: 4, tool: 3 });
    const calls = result.messages.flatMap((m) => m.tool_calls ?? []);
    expect(calls.map((c) => c.function.name)).toEqual(["run_in_terminal", "copilot_readFile", "copilot_replaceString"]);
    expect(JSON.parse(calls[0]?.function.arguments ?? "{}").input).toContain('"original": "npm test -- utils"');
    expect(JSON.parse(calls[0]?.function.arguments ?? "{}").input).not.toContain("vscodeToolId");
    const firstResult = result.messages.find((m) => m.role === "tool");
    expect(firstResult?.content).toContain("Received: 2026-02-02");
    expect(firstResult?.content).not.toContain("Status:");
    expect(result.warnings).toEqual([]);
  });

  it("keeps no bare --- separator between tool blocks as assistant text", () => {
    const { messages } = importTranscript(handwritten(COPILOT), { fileName: COPILOT });
    expect(messages.some((m) => m.role === "assistant" && typeof m.content === "string" && /^-{3,}$/m.test(m.content))).toBe(false);
    expect(messages.find((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) === 2)?.content).toBe("I'll run the tests first to see the failure.");
  });
});

describe("SpecStory from Cursor (`_**User**_` / `_**Assistant**_` headers)", () => {
  it("reads _**Assistant**_ sections as assistant turns, not as part of the user's", () => {
    const result = importTranscript(handwritten(CURSOR), { fileName: CURSOR });
    expect(result.format).toBe("specstory");
    expectValidConversation(result.messages);
    expect(countRoles(result.messages)).toEqual({ user: 2, assistant: 4, tool: 3 });
    expect(result.messages[0]).toEqual({ role: "user", content: "The fetch helper in src/net.ts gives up on the first timeout. Add a retry." });
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: "You're welcome." });
    expect(result.messages.some((m) => typeof m.content === "string" && m.content.includes("_****_"))).toBe(false);
  });

  it("reads Cursor's renderings of tool calls: Read file, a search in <details>, a bash command with its output", () => {
    const result = importTranscript(handwritten(CURSOR), { fileName: CURSOR });
    const calls = result.messages.flatMap((m) => m.tool_calls ?? []);
    expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments).input])).toEqual([
      ["read_file", "src/net.ts"],
      ["grep_search", 'Grep search for "fetchWithTimeout" • **2** files'],
      ["run_terminal_cmd", "npm test -- net"],
    ]);
    const results = result.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results[1]).toContain("| `file:///home/dev/app/src/api.ts` | L4 |");
    expect(results[2]).toBe(" PASS  src/net.test.ts (3 tests)");
    expect(result.messages.find((m) => m.tool_calls?.[0]?.function.name === "run_terminal_cmd")?.content).toMatch(/^```diff/);
    expect(result.warnings).toEqual([`${CURSOR}: 1 of 3 tool block(s) show no output; their results are empty`]);
  });
});
