/** How the CLI reads transcripts it cannot use: malformed JSON is reported at its line and column. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";

describe("context-engine on malformed transcript input", () => {
  it("says where a truncated JSON transcript breaks in compress, simulate and import, exit 1", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "t.json"), '[{"role": "user", "content": "hi"},');
    const runs = await Promise.all([runCli(["compress", "t.json"], dir), runCli(["simulate", "t.json"], dir), runCli(["import", "t.json"], dir)]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/: t\.json: invalid JSON at 1:36: Unexpected end of JSON input\n$/);
      expect(run.stderr).not.toContain("cannot detect");
    }
  });

  it("names the line and column of a bad token in the middle of a JSON transcript", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "t.json"), '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", content: "yo"}\n]\n');
    const run = await runCli(["compress", "t.json"], dir);
    expect([run.code, run.stderr]).toEqual([1, "context-engine compress: t.json: invalid JSON at 3:25: Expected double-quoted property name\n"]);
  });

  it("keeps reporting a bad line of a Claude Code JSONL transcript as a per-line warning", async () => {
    const dir = tempDir();
    const record = (type: string, text: string, uuid: string) => JSON.stringify({ type, uuid, sessionId: "s", timestamp: "2025-01-01T00:00:00Z", message: { role: type, content: text } });
    writeFileSync(join(dir, "s.jsonl"), [record("user", "hello", "a"), "{broken", record("assistant", "hi there", "b")].join("\n") + "\n");
    const run = await runCli(["import", "s.jsonl"], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: s\.jsonl:2: invalid JSON/m);
  });
});
