/**
 * An engine whose output breaks provider rules, caught where its author looks: `simulate` and `eval`
 * name the request and the problem and exit 1 (`--allow-invalid` exits 0), run as a user runs them.
 */
import { describe, expect, it } from "vitest";
import { writeFiles } from "./support/files.js";
import { runCli as cli, tempDir } from "./support/cli.js";
import { toolRounds } from "./support/toolRounds.js";

/** A directory engine that compacts before every request by keeping the system prompt, the first ask and the last message. */
const ORPHANING = `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Orphaning extends ContextEngine {
  static apiVersion = 1;
  readonly name = "orphaning";
  shouldCompress(): boolean { return true; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages.length <= 3 ? messages : [messages[0]!, messages[1]!, ...messages.slice(-1)];
  }
}
`;

/** A scratch project with the engine beside its config and the transcript t.json. */
function project(): string {
  const dir = tempDir("ce-invalid-output-");
  writeFiles(dir, {
    "config.yaml": "context:\n  engine: orphaning\n",
    "plugins/context_engine/orphaning/index.ts": ORPHANING,
    "t.json": JSON.stringify(toolRounds(3)),
  });
  return dir;
}

const FIRST = 'the first, before request 1 (agent): messages[2] (tool, tool_call_id "call_0"): result has no matching tool call [orphan_tool_result]';

describe("an engine that returns an orphan tool result", () => {
  it("fails simulate with exit 1, naming the request and the problem", async () => {
    const run = await cli(["simulate", "t.json"], project());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: engine orphaning returned 3 invalid outputs, each breaking provider rules (refused: the context was kept as it was); ${FIRST}\n`);
    expect(run.stderr).toContain("pass --allow-invalid to exit 0 anyway");
    // the report is still printed
    expect(run.stdout).toMatch(/requests\s+\d+/);
  });

  it("lets simulate exit 0 with --allow-invalid, still printing the invalid outputs", async () => {
    const run = await cli(["simulate", "t.json", "--allow-invalid"], project());
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: engine orphaning returned 3 invalid outputs, each breaking provider rules (refused: the context was kept as it was); ${FIRST}\n`);
    expect(run.stderr).not.toContain("error:");
  });

  it("fails eval with exit 1, naming the transcript, the request and the problem; --allow-invalid exits 0", async () => {
    const dir = project();
    const run = await cli(["eval", "orphaning", "t.json"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: engine orphaning returned 3 invalid outputs on t.json, each breaking provider rules (refused: the context was kept as it was); ${FIRST}\n`);
    const allowed = await cli(["eval", "orphaning", "t.json", "--allow-invalid", "--json"], dir);
    expect(allowed.code).toBe(0);
    const json = JSON.parse(allowed.stdout) as { runs: Array<{ invalidOutputs: { count: number; first: { request: number; problem: { code: string; index: number } } } }> };
    expect(json.runs[0]!.invalidOutputs).toMatchObject({ count: 3, first: { request: 1, problem: { code: "orphan_tool_result", index: 2 } } });
  });

  it("fails compress with exit 1, showing the output and its first problem", async () => {
    const dir = project();
    writeFiles(dir, { "c.json": JSON.stringify(toolRounds(1).slice(0, 4)) });
    const run = await cli(["compress", "c.json", "--quiet"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/valid +NO — 1 problems: messages\[2\] \(tool, tool_call_id "call_0"\): result has no matching tool call/);
  });
});
