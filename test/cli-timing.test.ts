import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTranscript as fixture, runCli as cli, tempDir } from "./support/cli.js";

/** The bundled transcript (timestamped, 39 requests) with the agent idle for 10 minutes before message 50: past the 5m cache TTL. */
function transcriptWithIdleGap(): string {
  const messages = JSON.parse(readFileSync(fixture, "utf8")) as Array<{ timestamp?: string }>;
  messages.forEach((m, i) => {
    if (i >= 50 && m.timestamp !== undefined) m.timestamp = new Date(Date.parse(m.timestamp) + 10 * 60_000).toISOString();
  });
  const file = join(tempDir(), "idle.json");
  writeFileSync(file, JSON.stringify(messages));
  return file;
}

/** The cells of a row of the side-by-side table, split on runs of two or more spaces. */
function row(stdout: string, label: string): string[] {
  const line = stdout.split("\n").find((l) => l.startsWith(label));
  if (line === undefined) throw new Error(`no row '${label}' in:\n${stdout}`);
  return line.slice(label.length).trim().split(/ {2,}/);
}

describe("compression.timing side by side in simulate and eval", () => {
  it("simulate --timing both prints cost, compactions, largest request against the window and facts kept for threshold and cache_aware", async () => {
    const run = await cli(["simulate", fixture, "--context-length", "16000", "--timing", "both"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("💾 Prompt caching: ENABLED (Claude via Anthropic, 5m TTL)");
    expect(run.stdout).toMatch(/engine compressor, claude-sonnet-4 via anthropic, 16,000-token window, 5m cache TTL/);
    expect(row(run.stdout, "compression.timing")).toEqual(["threshold", "cache_aware"]);
    expect(row(run.stdout, "cost (summaries included)")[1]).toMatch(/^\$0\.\d+ \([−+]\d+\.\d % vs threshold\)$/);
    for (const cell of row(run.stdout, "largest request")) expect(cell).toMatch(/^[\d,]+ of the 16,000-token window$/);
    expect(row(run.stdout, "requests over the window less the output reserve")).toEqual(["0 of 39", "0 of 39"]);
    expect(row(run.stdout, "compactions")).toHaveLength(2);
    expect(run.stdout).toMatch(/facts kept \(paths, errors, commands, asks\)/);
  });

  it("cache_aware compacts when the agent comes back after the cache expired, and then costs less than the threshold rule", async () => {
    const run = await cli(["simulate", transcriptWithIdleGap(), "--context-length", "20000", "--timing", "both"]);
    expect(run.code).toBe(0);
    expect(row(run.stdout, "compactions")).toEqual(["0", "1"]);
    expect(row(run.stdout, "requests over the window less the output reserve")).toEqual(["0 of 39", "0 of 39"]);
    const [threshold, cacheAware] = row(run.stdout, "cost (summaries included)");
    expect(cacheAware).toMatch(/\(−\d+\.\d % vs threshold\)$/);
    expect(Number(cacheAware!.match(/^\$([\d.]+)/)![1])).toBeLessThan(Number(threshold!.slice(1)));
  });

  it("cache_aware changes nothing while the cache stays warm and the context stays under the trigger", async () => {
    const run = await cli(["simulate", fixture, "--context-length", "20000", "--timing", "both"]);
    expect(run.code).toBe(0);
    const [threshold, cacheAware] = row(run.stdout, "cost (summaries included)");
    expect(cacheAware).toBe(`${threshold} (+0.0 % vs threshold)`);
    expect(row(run.stdout, "compactions")).toEqual(["0", "0"]);
  });

  it("eval --timing both runs each engine under both policies as columns of its table", async () => {
    const run = await cli(["eval", "compressor", transcriptWithIdleGap(), "--window", "20000", "--timing", "both"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+compressor \(threshold\)\s+compressor \(cache_aware\)$/m);
    expect(run.stdout).toMatch(/^compactions\s+0\s+1$/m);
    expect(run.stdout).toMatch(/^largest request\s+[\d,]+ tokens\s+[\d,]+ tokens$/m);
  });

  it("simulate --timing cache_aware replays that one policy in the usual report, whatever the config says", async () => {
    const run = await cli(["simulate", transcriptWithIdleGap(), "--context-length", "20000", "--timing", "cache_aware"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/compactions\s+1 \(agent 1, gateway 0\)/);
    const plain = await cli(["simulate", transcriptWithIdleGap(), "--context-length", "20000"]);
    expect(plain.stdout).toMatch(/compactions\s+0 \(agent 0, gateway 0\)/);
  });

  it("a --timing that is no policy, or both with --html, is a usage error naming the flag", async () => {
    const run = await cli(["simulate", fixture, "--timing", "sometimes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--timing must be threshold, cache_aware or both, got 'sometimes'");
    const html = await cli(["simulate", fixture, "--timing", "both", "--html", "r.html"], tempDir());
    expect(html.code).toBe(2);
    expect(html.stderr).toContain("--html writes the report of one replay: give --timing threshold or --timing cache_aware with it, not both");
  });
});
