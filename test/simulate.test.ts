import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTranscript as fixture, repoRoot, runCli as cli, tempDir } from "./support/cli.js";
import { expectSelfContainedPage } from "./support/page.js";
import { useAnthropicFixtureServer, useOpenAIFixtureServer } from "./support/useOpenAIFixtureServer.js";

describe("context-engine simulate", () => {
  const openai = useOpenAIFixtureServer();
  const anthropic = useAnthropicFixtureServer();

  it("prints the caching banner first, then the summary table of the replay", async () => {
    const run = await cli(["simulate", fixture, "--context-length", "8000"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("💾 Prompt caching: ENABLED (Claude via Anthropic, 5m TTL)");
    expect(run.stdout).toMatch(/model\s+claude-sonnet-4 via anthropic, 8,000-token window/);
    expect(run.stdout).toMatch(/requests\s+39 /);
    expect(run.stdout).toMatch(/compactions\s+[1-9]\d* \(agent \d+, gateway \d+\)/);
    // 16,4xx since counts include each tool call's envelope and a tool result's call id, as providers receive them
    expect(run.stdout).toMatch(/peak context\s+[\d,]+ tokens \(16,\d{3} without compaction\)/);
    expect(run.stdout).toMatch(/final context\s+[\d,]+ tokens/);
    expect(run.stdout).toMatch(/cache reads\s+\d+\.\d % of [\d,]+ input tokens/);
    // the compactions' summaries are priced as calls to the summary model (the main model when none is configured)
    expect(run.stdout).toMatch(/total cost\s+\$0\.\d+: requests \$0\.\d+ \(ideal cache \$0\.\d+\), [1-9]\d* summar(y|ies) \$0\.\d+ \(claude-sonnet-4\)/);
    expect(run.stdout).toMatch(/vs no caching\s+\$0\.\d+ — the requests cost \d+\.\d % of it/);
    expect(run.stdout).toMatch(/vs no compaction\s+\$0\.\d+ — the replay costs \d+\.\d % of it, its summaries included/);
    expect(run.stdout).toMatch(/\d+ summary calls? priced at claude-sonnet-4 \(the prompt an LLM summarizer sends, uncached\): [\d,]+ tokens in, [\d,]+ out/);
    expect(run.stdout).toMatch(/request +\d+ +agent +[\d,]+ → [\d,]+ tokens; [\d,]+ re-written to the cache; that request cost \$/);
    expect(run.stdout).toContain("without compaction the context would reach 16,");
  });

  it("prices the summaries at the model the LLM summarizer calls (here the endpoint's default, not the replayed model)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), `auxiliary:\n  compression:\n    base_url: ${openai.current.baseUrl}\n    api_key: sk-test\n`);
    const run = await cli(["simulate", fixture, "--context-length", "8000"], dir);
    expect(run.code).toBe(0);
    const calls = openai.current.requests.length;
    expect(calls).toBeGreaterThan(0);
    expect(new Set(openai.current.requests.map((r) => (r.body as { model?: string }).model))).toEqual(new Set(["gpt-4o-mini"]));
    expect(run.stdout).toMatch(new RegExp(`total cost\\s+\\$0\\.\\d+: requests \\$0\\.\\d+ \\(ideal cache \\$0\\.\\d+\\), ${calls} summar(y|ies) \\$0\\.\\d+ \\(gpt-4o-mini\\)`));
  });

  it("summarizes through Anthropic's Messages API with provider anthropic and prices the tokens the API reported at the Claude summary model", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), `auxiliary:\n  compression:\n    provider: anthropic\n    base_url: ${anthropic.current.origin}\n`);
    const run = await cli(["simulate", fixture, "--context-length", "8000", "--model", "gpt-4o"], dir, { ANTHROPIC_API_KEY: "sk-ant-test" });
    expect(run.code).toBe(0);
    const calls = anthropic.current.requests.length;
    expect(calls).toBeGreaterThan(0);
    expect(anthropic.current.requests.every((r) => r.path === "/v1/messages" && r.body.model === "claude-haiku-4-5")).toBe(true);
    expect(openai.current.requests).toHaveLength(0);
    // the fixture reports 10 prompt tokens a call: what is priced is the API's count, not an estimate of the prompt
    expect(run.stdout).toMatch(new RegExp(`total cost\\s+\\$0\\.\\d+: requests \\$0\\.\\d+ \\(ideal cache \\$0\\.\\d+\\), ${calls} summar(y|ies) \\$0\\.\\d+ \\(claude-haiku-4-5\\)`));
    expect(run.stdout).toMatch(new RegExp(`${calls} summary calls? priced at claude-haiku-4-5 .*: ${calls * 10} tokens in`));
  });

  it("sends each summary as the conversation's suffix with summary_request: suffix, and prices its input as the replay's cache serves it", async () => {
    const dir = tempDir();
    const origin = anthropic.current.origin;
    writeFileSync(
      join(dir, "config.yaml"),
      `model:\n  default: claude-sonnet-4-6\n  provider: anthropic\n  base_url: ${origin}\ncompression:\n  summary_request: suffix\n  threshold_tokens: 6000\nauxiliary:\n  compression:\n    provider: anthropic\n    base_url: ${origin}\n`,
    );
    const run = await cli(["simulate", fixture, "--context-length", "40000"], dir, { ANTHROPIC_API_KEY: "sk-ant-test" });
    expect(run.code).toBe(0);
    // the suffix requests: the replayed conversation with the instruction after it
    const suffixes = anthropic.current.requests.filter((r) => r.body.messages.length > 1);
    expect(suffixes.length).toBeGreaterThan(0);
    for (const { body } of suffixes) expect(JSON.stringify(body.messages.at(-1))).toContain("The conversation above is being compacted.");
    const summaries = new RegExp(`total cost\\s+\\$0\\.\\d+: requests \\$0\\.\\d+ \\(ideal cache \\$0\\.\\d+\\), ${anthropic.current.requests.length} summar(y|ies) \\$0\\.\\d+ \\(claude-sonnet-4-6; ${suffixes.length} as the conversation's suffix, \\d+\\.\\d % of the summaries' input read from the cache\\)`);
    expect(run.stdout).toMatch(summaries);
    expect(run.stdout).toMatch(/summary calls? priced at claude-sonnet-4-6 \(.*the conversation's suffix, its input as the prompt cache served it.*\): [\d,]+ tokens in \([\d,]+ read from the cache, [\d,]+ written\)/);
  });

  it("writes one self-contained HTML page with the charts", async () => {
    const dir = tempDir();
    const run = await cli(["simulate", fixture, "--context-length", "8000", "--html", "report.html"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("wrote report.html");
    const page = readFileSync(join(dir, "report.html"), "utf8");
    expectSelfContainedPage(page);
    expect(page).toContain('<svg class="chart" id="context-chart"');
    expect(page).toContain('<svg class="chart" id="cost-chart"');
    for (const series of ["context", "no-compaction", "cost", "no-caching", "no-compaction-cost"]) expect(page).toContain(`data-series="${series}"`);
    expect(page).toContain('data-rule="agent-threshold"');
    expect(page).toMatch(/class="marker compaction-marker m-agent"/);
    // the cost line and the requests' running sum include the summaries, which each request's event names
    expect(page).toContain("cost as replayed, summaries included");
    expect(page).toContain("<th>cumulative, summaries included</th>");
    expect(page).toMatch(/[1-9] summar(y|ies) \$0\.\d+/);
  });

  it("shows a progress bar on stderr with --progress", async () => {
    const run = await cli(["simulate", fixture, "--context-length", "8000", "--progress"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("\rreplaying [");
    expect(run.stderr).toContain("] 39/39 requests\n");
  });

  it("says caching is disabled for a model without cache_control and still prices the replay", async () => {
    const run = await cli(["simulate", fixture, "--model", "gpt-4o", "--context-length", "8000"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("💾 Prompt caching: DISABLED (gpt-4o is not a Claude model)");
    expect(run.stdout).toMatch(/cache reads\s+0\.0 %/);
  });

  it("takes the model and window from the config when no flag names them", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "model:\n  default: claude-haiku-4-5\n  provider: openrouter\n  context_length: 9000\nprompt_caching:\n  cache_ttl: 1h\n");
    const run = await cli(["simulate", fixture, "--config", join(dir, "config.yaml")]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("💾 Prompt caching: ENABLED (Claude via OpenRouter, 1h TTL)");
    expect(run.stdout).toMatch(/model\s+claude-haiku-4-5 via openrouter, 9,000-token window/);
  });

  it("does not claim a lost cache after a compaction when prompt caching is off", async () => {
    const run = await cli(["simulate", fixture, "--model", "gpt-4o", "--context-length", "8000"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/request +\d+ +agent .*prompt caching is off, so nothing is cached to lose/);
    expect(run.stdout).not.toContain("the cache did not recover");
  });

  it("says the costs are unknown for a model without a price instead of printing $0", async () => {
    const dir = tempDir();
    const run = await cli(["simulate", fixture, "--model", "mystery-model", "--context-length", "8000", "--html", "report.html"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/total cost\s+— \(no price for mystery-model \(add it under prices: in the config\)\)/);
    expect(run.stdout).not.toMatch(/total cost\s+\$0/);
    expect(run.stdout).not.toContain("the replay costs 0.0 % of it");
    const page = readFileSync(join(dir, "report.html"), "utf8");
    expect(page).toContain("the costs are unknown: no price for mystery-model");
    expect(page).not.toContain("the replay cost $0 against $0");
  });

  it("replays lcm on a scratch store: the configured database is neither created nor written", async () => {
    const dir = tempDir();
    const lcmPlugin = join(repoRoot, "plugins/lcm");
    writeFileSync(join(dir, "config.yaml"), `context:\n  engine: lcm\nplugins:\n  - ${lcmPlugin}\nlcm:\n  db_path: state/lcm.db\n`);
    const run = await cli(["simulate", fixture, "--context-length", "8000"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/engine\s+lcm/);
    expect(run.stdout).toMatch(/compactions\s+[1-9]/);
    expect(existsSync(join(dir, "state"))).toBe(false);
    expect(existsSync(join(dir, ".context-engine"))).toBe(false);
  });

  it("exits 2 without a transcript and 1 for a missing file", async () => {
    const usage = await cli(["simulate"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("expects exactly one transcript file");
    const missing = await cli(["simulate", "nope.json"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("transcript not found");
  });
});
