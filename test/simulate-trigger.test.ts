/** `simulate` labels the agent trigger it really uses: the share of the window and the rule that set it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTranscript, runCli, tempDir } from "./support/cli.js";

/** The `thresholds` row of the simulate table. */
function thresholdsRow(stdout: string): string | undefined {
  return stdout.split("\n").find((line) => line.startsWith("thresholds"));
}

describe("simulate's agent trigger label", () => {
  it("says 85 % and the small-context floor for an 8,000-token window, in the table and the HTML report", async () => {
    const html = join(tempDir(), "r.html");
    const run = await runCli(["simulate", bundledTranscript, "--context-length", "8000", "--html", html]);
    expect(run.code).toBe(0);
    const label = "agent trigger 6,800 tokens (85 %: small-context floor";
    expect(thresholdsRow(run.stdout)).toContain(label);
    expect(run.stdout).not.toMatch(/\b50 %/);
    const page = readFileSync(html, "utf8");
    expect(page).toContain(label);
    expect(page).toContain("agent &amp; gateway 85 % 6.8k");
  });

  it("says 50 % and compression.threshold for a 200,000-token window", async () => {
    const run = await runCli(["simulate", bundledTranscript, "--context-length", "200000"]);
    expect(thresholdsRow(run.stdout)).toMatch(/agent trigger 100,000 tokens \(50 %: compression\.threshold\); gateway hygiene 170,000 tokens \(85 %\)$/);
  });

  it("says when the 64,000-token minimum raises the trigger above the configured share", async () => {
    const run = await runCli(["simulate", bundledTranscript, "--context-length", "100000"]);
    expect(thresholdsRow(run.stdout)).toContain("agent trigger 64,000 tokens (64 %: 64,000-token minimum trigger)");
  });
});
