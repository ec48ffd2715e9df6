import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTranscript as fixture, repoRoot, runCli as cli, tempDir } from "./support/cli.js";
import { expectSelfContainedPage } from "./support/page.js";

const marshmallow = join(repoRoot, "test/fixtures/marshmallow-1867.json");

describe("context-engine eval", () => {
  it("compares engines side by side on each transcript, then over all of them", async () => {
    const run = await cli(["eval", "compressor,sliding_window", fixture, marshmallow, "--window", "8000"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("eval: 8,000-token window (7,200 tokens a request, after a 800-token output reserve), claude-sonnet-4 via anthropic; a fact survives when the engine's own text (its summary) still names it");
    const [, first = "", second = "", totals = ""] = run.stdout.split(/\n\n/);
    expect(first).toMatch(/python-to-rust-port\.json \(openai, 80 messages\)\n +compressor +sliding_window\n/);
    expect(first).toMatch(/\ncompactions +3 +1\nrequests over the window less the output reserve +0 of 39 +19 of 39 FAILED \(first: request 15\)\n/);
    expect(first).toMatch(/\npaths kept +100\.0 % \(6\/6\) +0\.0 % \(0\/24\)\n/);
    expect(first).toMatch(/\nacting commands kept +100\.0 % \(5\/5\) +0\.0 % \(0\/11\)\nreads kept +— +0\.0 % \(0\/1\)\n/);
    // what an LLM summarizer's prompts would have shown the summary model, built without calling one; the sliding window calls none
    expect(first).toMatch(/\nsummary model shown: paths +100\.0 % \(6\/6\) +—\n/);
    expect(first).toMatch(/\nsummary model shown: user asks +100\.0 % \(1\/1\) +—\nsummarizer calls +2 +0\n/);
    expect(first).toMatch(/\nerrors kept +— +—\n/);
    // the eval's own detectors find no path or identifier in the compressor's summaries that its input lacked
    expect(first).toMatch(/\ninvented paths and identifiers +0 of \d+ stated +—\n/);
    expect(first).toMatch(/\nfirst chunk retained +100\.0 % after 3 \(of 5 facts\) +0.0 % after 1 \(of 37 facts\)\n/);
    expect(first).toMatch(/\nretention per compaction +100 → 100 → 100 % +0 %\n/);
    expect(first).toMatch(/\nfirst compacted ask +kept through compaction 3 +lost at compaction 1 \(of 1\)\n/);
    expect(first).toMatch(/\nsummary tokens +\d+ mean, \d+ max +0 mean, 0 max\n/);
    expect(first).toMatch(/\ncost \(summaries included\) +\$0\.\d+ +\$0\.\d+\ncache reads +\d+\.\d % +\d+\.\d %\n/);
    // an engine that never compacts is not cheaper: the requests it sends over the window fail
    expect(first).toMatch(/\nsliding_window failed 19 of 39 requests: they sent more than 7,200 tokens, the 8,000-token window less the 800-token output reserve \(first: request 15, largest [\d,]+ tokens\), which the API rejects/);
    expect(first).not.toMatch(/^compressor failed/m);
    expect(second).toMatch(/^.*marshmallow-1867\.json \(openai, 24 messages\)/);
    expect(totals).toMatch(/^all transcripts\n +compressor +sliding_window\ntranscripts +2 +2\ncompactions +4 +1\nrequests over the window less the output reserve +0 of \d+ +\d+ of \d+ FAILED\n/);
  });

  it("compacts in a 64,000-token window by default, where a short session never compacts", async () => {
    const run = await cli(["eval", "compressor", fixture]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("eval: 64,000-token window");
    expect(run.stdout).toMatch(/\ncompactions +0\nrequests over the window less the output reserve +0 of 39\npaths kept +—\n/);
  });

  it("prints JSON with each compaction's survival and what it lost", async () => {
    const run = await cli(["eval", "compressor,sliding_window", fixture, "--window", "8000", "--json"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      window: number;
      model: string;
      runs: Array<{ engine: string; costUsd: number; costWithSummariesUsd: number; summaries: { calls: number; inputTokens: number; costUsd: number | null; model: string } | null; overWindow: { failed: number; requests: number; firstRequest: number | null }; survival: Record<string, { total: number; kept: number }>; firstChunk: { retention: { after: number; share: number } | null }; compactions: Array<{ number: number; lost: Array<{ kind: string; text: string }> }> }>;
      totals: Array<{ engine: string; compactions: number; overWindow: { failed: number; requests: number } }>;
    };
    expect([out.window, out.model]).toEqual([8000, "claude-sonnet-4"]);
    const [compressor, window] = out.runs;
    expect(compressor!.engine).toBe("compressor");
    expect(compressor!.survival.path).toEqual({ total: 6, kept: 6 });
    expect(compressor!.firstChunk.retention).toEqual({ after: 3, share: 1 });
    expect(compressor!.compactions.map((c) => c.number)).toEqual([1, 2, 3]);
    // the compressor's summaries (one per compaction that summarized) are priced with its requests; the sliding window writes none
    expect(compressor!.summaries).toMatchObject({ model: "claude-sonnet-4" });
    expect(compressor!.summaries!.calls).toBeGreaterThan(0);
    expect(compressor!.summaries!.calls).toBeLessThanOrEqual(compressor!.compactions.length);
    expect(compressor!.summaries!.inputTokens).toBeGreaterThan(0);
    expect(compressor!.costWithSummariesUsd).toBeCloseTo(compressor!.costUsd + compressor!.summaries!.costUsd!, 12);
    expect(window!.summaries).toMatchObject({ calls: 0, costUsd: 0 });
    expect(window!.compactions[0]!.lost).toEqual(expect.arrayContaining([{ kind: "command", text: "cargo init --lib --name python_utils", key: "cargo init --lib --name python_utils" }]));
    expect(out.totals.map((t) => [t.engine, t.compactions])).toEqual([["compressor", 3], ["sliding_window", 1]]);
    expect(out.runs.map((r) => [r.overWindow.failed, r.overWindow.firstRequest])).toEqual([[0, null], [19, 15]]);
    expect(out.totals.map((t) => t.overWindow)).toEqual([{ failed: 0, requests: 39 }, { failed: 19, requests: 39 }]);
  });

  it("writes a self-contained HTML page with the retention chart and the lost facts", async () => {
    const dir = tempDir();
    const run = await cli(["eval", "compressor,sliding_window", fixture, "--window", "8000", "--root", repoRoot, "--html", "eval.html"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("\nwrote eval.html");
    const page = readFileSync(join(dir, "eval.html"), "utf8");
    expectSelfContainedPage(page);
    expect(page).toContain("<title>Eval — compressor vs sliding_window</title>");
    expect(page).toContain('<svg class="chart" id="retention-chart-0"');
    expect(page).toContain('data-series="retention-compressor"');
    expect(page).toContain('data-series="retention-sliding_window"');
    expect(page).toContain("<td>paths kept</td><td>100.0 % (6/6)</td><td>0.0 % (0/24)</td>");
    expect(page).toContain("What sliding_window lost at each compaction");
    expect(page).toContain('<span class="muted">command</span> cargo init --lib --name python_utils');
  });

  it("shows a progress bar per run on stderr with --progress", async () => {
    const run = await cli(["eval", "compressor,sliding_window", fixture, "--window", "8000", "--progress"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`compressor on ${fixture}:`);
    expect(run.stderr).toContain(`sliding_window on ${fixture}:`);
    expect(run.stderr).toContain("] 39/39 requests\n");
  });

  it("never writes into the configured lcm database", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), `plugins:\n  - ${join(repoRoot, "plugins/lcm")}\nlcm:\n  db_path: store.db\n`);
    const run = await cli(["eval", "lcm", fixture, "--window", "8000"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\n +lcm\ncompactions +[1-9]/);
    expect(existsSync(join(dir, "store.db"))).toBe(false);
    expect(existsSync(join(dir, ".context-engine"))).toBe(false);
  });

  it("refuses an engine that does not resolve instead of falling back", async () => {
    const run = await cli(["eval", "compressor,nothere", fixture, "--window", "8000"], tempDir());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^context-engine eval: .*nothere/);
    expect(run.stdout).toBe("");
  });

  it("explains its usage when the engines or transcripts are missing or the window is bad", async () => {
    for (const args of [["eval"], ["eval", "compressor"], ["eval", "compressor,,lcm", fixture], ["eval", "compressor", fixture, "--window", "0"]]) {
      const run = await cli(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^context-engine eval: .*\(see `context-engine eval --help`\)\n$/);
    }
  });
});
