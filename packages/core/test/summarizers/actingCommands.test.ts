import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { splitSummarySections } from "../../src/summarizers/prompt.js";
import type { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const summarizer = new ExtractiveSummarizer();

function section(summary: string, heading: (typeof SUMMARY_SECTIONS)[number]): string {
  return (splitSummarySections(summary).bodies.get(heading) ?? []).join("\n").trim();
}

let calls = 0;
/** An assistant turn running `command` and the tool result `output`. */
function ran(command: string, output: string): ChatMessage[] {
  const id = `call_${++calls}`;
  return [
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "exec_command", arguments: JSON.stringify({ cmd: command }) } }] },
    { role: "tool", tool_call_id: id, content: output },
  ];
}

describe("the offline summary's room goes to actions", () => {
  it("an rg that found nothing (exit 1) is neither blocked nor an error, and says it found nothing", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Find where parseConfig is tested and add a test for empty files." },
      ...ran('rg -n "parseConfig" tests -S', "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n"),
      ...ran("test -f tests/config.test.ts", "Exit code: 1\nWall time: 0.0 seconds\nOutput:\n"),
      ...ran("diff fixtures/a.json fixtures/b.json", 'Exit code: 1\nWall time: 0.0 seconds\nOutput:\n2c2\n< "a": 1\n---\n> "a": 2\n'),
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toBe("- (none)");
    expect(section(summary, "## Next Steps")).not.toContain("Fix the failure");
    expect(section(summary, "## Critical Context")).not.toContain("exit 1");
    const done = section(summary, "### Done");
    expect(done).toContain('ran `rg -n "parseConfig" tests -S` → no match (exit 1)');
    expect(done).toContain("ran `test -f tests/config.test.ts` → false (exit 1)");
    expect(done).toContain("ran `diff fixtures/a.json fixtures/b.json` → differ (exit 1)");
  });

  it("lists a write whose label is cut before its redirection before the reads", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Point the session file at the test folder." },
      ...ran("cat data/session.jsonl", "Exit code: 0\nOutput:\n{}\n"),
      ...ran("sed 's|/mnt/c/python/app|/mnt/c/python/app_test|g' \\\n  data/session.jsonl > data/session-fixed.jsonl", "Exit code: 0\nOutput:\n"),
    ];
    const done = section(await summarizer.summarize({ messages, maxTokens: 2_000 }), "### Done").split("\n");
    expect(done[0]).toContain("ran `sed 's|/mnt/c/python/app|/mnt/c/python/app_test|g' …`");
    expect(done[1]).toContain("ran `cat data/session.jsonl`");
  });

  it("a difference that looks like an error is still only a difference", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Compare the outputs." },
      ...ran("diff expected.log actual.log", "Exit code: 1\nOutput:\n3c3\n< ok\n---\n> ERROR: connection refused\n"),
    ];
    const summary = await summarizer.summarize({ messages, maxTokens: 2_000 });
    expect(section(summary, "### Blocked")).toBe("- (none)");
    expect(section(summary, "### Done")).toContain("ran `diff expected.log actual.log` → differ (exit 1)");
  });

  it("ls of a missing path stays a failure", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Check the build output." },
      ...ran("ls dist/", "Exit code: 2\nWall time: 0.0 seconds\nOutput:\nls: cannot access 'dist/': No such file or directory\n"),
    ];
    expect(section(await summarizer.summarize({ messages, maxTokens: 2_000 }), "### Blocked")).toContain("ran `ls dist/`");
  });

  it("keeps the build and the test run before the reads when the budget is short", async () => {
    const reads = (from: number) => Array.from({ length: 14 }, (_, i) => ran(`sed -n '${from + i}0,${from + i + 1}0p' src/parser/module_${from + i}.ts`, `Exit code: 0\nOutput:\nexport const line${i} = ${i};\n`)).flat();
    const messages: ChatMessage[] = [
      { role: "user", content: "Make the parser accept empty files." },
      ...reads(0),
      ...ran("npm run build", "Exit code: 0\nOutput:\nbuilt in 2.1s\n"),
      ...ran("npx vitest run test/parser.test.ts", "Exit code: 0\nOutput:\n 12 passed\n"),
      ...ran("git commit -am 'Accept empty files'", "Exit code: 0\nOutput:\n[main 1a2b3c4] Accept empty files\n"),
      ...reads(20),
    ];
    const roomy = section(await summarizer.summarize({ messages, maxTokens: 4_000 }), "### Done");
    const done = section(await summarizer.summarize({ messages, maxTokens: 420 }), "### Done");
    expect(done).toContain("more omitted");
    expect(done.length).toBeLessThan(roomy.length);
    const lines = done.split("\n");
    const firstRead = lines.findIndex((line) => line.includes("sed -n"));
    for (const acting of ["npm run build", "npx vitest run test/parser.test.ts", "git commit -am 'Accept empty files'"]) {
      const at = lines.findIndex((line) => line.includes(acting));
      expect(at, acting).toBeGreaterThanOrEqual(0);
      if (firstRead !== -1) expect(at, acting).toBeLessThan(firstRead);
    }
  });
});
