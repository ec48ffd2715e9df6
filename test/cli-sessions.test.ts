/** `context-engine sessions`, run as a process against a real SQLite session store. */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ContextCompressor, OpenAICompatibleSummarizer, openSqliteStore, RoughTokenCounter, SUMMARY_SECTIONS } from "@context-engine/core";
import { CompactionSession, takeCompactionRequest } from "@context-engine/core/session";
import { bundledTranscript, repoRoot, runCli, tempDir } from "./support/cli.js";
import { startOpenAIFixtureServer } from "./support/openaiFixtureServer.js";
import { readRounds } from "./support/toolRounds.js";

let dir: string;
let older: string;
let newer: string;

beforeAll(() => {
  dir = tempDir();
  let clock = 1_700_000_000_000;
  const store = openSqliteStore(join(dir, "sessions.db"), { now: () => (clock += 60_000) });
  older = store.createSession({ id: "s-older", platform: "telegram", title: "flaky CI" }).id;
  store.appendMessages(older, [
    { role: "user", content: "Why does the nightly build fail on arm64?" },
    { role: "assistant", content: "The linker runs out of memory in cargo-llvm-cov." },
    { role: "user", content: "Then cap the jobs at two." },
  ]);
  store.archiveAndReplace(older, [{ role: "user", content: "[summary] arm64 nightly: cap the jobs" }]);
  newer = store.createSession({ id: "s-newer", platform: "cli", title: "parser port" }).id;
  store.appendMessages(newer, [{ role: "user", content: "Port the parser to Rust." }]);
  // someone else's session in the same file: never shown without --scope or --all-scopes
  const other = store.createSession({ id: "s-tenant-b", platform: "gateway", scope: "tenant-b", title: "tenant b's port" });
  store.appendMessages(other.id, [{ role: "user", content: "Port the billing parser; key tenantbsecret" }]);
  store.close();
});

describe("context-engine sessions", () => {
  it("reads one scope at a time: the default one, --scope <id>, or every one with --all-scopes", async () => {
    const plain = await runCli(["sessions", "search", "parser"], dir);
    expect(plain.stdout).toContain("s-newer");
    expect(plain.stdout).not.toContain("tenantbsecret");
    expect((await runCli(["sessions", "list"], dir)).stdout).not.toContain("s-tenant-b");
    const shown = await runCli(["sessions", "show", "s-tenant-b"], dir);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("no session 's-tenant-b' in scope 'default' (--scope <id>, or --all-scopes for every scope)");
    const tenant = await runCli(["sessions", "search", "parser", "--scope", "tenant-b"], dir);
    expect(tenant.stdout).toContain("tenantbsecret");
    expect(tenant.stdout).not.toContain("s-newer");
    const all = await runCli(["sessions", "list", "--all-scopes"], dir);
    expect(all.stdout).toMatch(/^s-tenant-b {2}\[tenant-b\] /m);
    expect(all.stdout).toMatch(/^s-newer {2}\[default\] /m);
    const both = await runCli(["sessions", "list", "--all-scopes", "--scope", "x"], dir);
    expect(both.code).toBe(2);
  });

  it("lists sessions newest first with their active/stored counts and first ask", async () => {
    const run = await runCli(["sessions", "list"], dir);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^s-newer .* cli {2}1\/1 active {2}parser port$/);
    expect(lines[1]).toBe("    first ask: Port the parser to Rust.");
    expect(lines[2]).toMatch(/^s-older .* telegram {2}1\/4 active, 1 compaction {2}flaky CI$/);
  });

  it("finds a compacted turn with the turns around it", async () => {
    const run = await runCli(["sessions", "search", "cargo-llvm-cov", "--window", "1"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("s-older  flaky CI");
    expect(run.stdout).toContain("hit at seq 2 (archived by a compaction):");
    expect(run.stdout).toMatch(/^ {2}> {4}2 assistant +\(archived\) The linker runs out of memory/m);
    expect(run.stdout).toMatch(/^ {3} {4}1 user +\(archived\) Why does the nightly/m);
  });

  it("shows the active list, or every stored turn with --all, as JSON with --json", async () => {
    const active = await runCli(["sessions", "show", "s-older"], dir);
    expect(active.stdout.trimEnd().split("\n").slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(["4"]);
    const all = await runCli(["sessions", "show", "s-older", "--all", "--json"], dir);
    const parsed = JSON.parse(all.stdout) as { messages: { seq: number; active: boolean }[] };
    expect(parsed.messages.map((m) => [m.seq, m.active])).toEqual([[1, false], [2, false], [3, false], [4, true]]);
  });

  it("shows the work a session's workers left pending in the store: the agent's compaction request, a summary being prepared, then ready", async () => {
    const summaries = await startOpenAIFixtureServer();
    const db = join(tempDir(), "sessions.db");
    const store = openSqliteStore(db);
    // a worker's engine on the shared store: compact_context on, summaries prepared in the background
    const engine = () =>
      new ContextCompressor({
        compression: { protect_last_n: 4, threshold_tokens: 12_000, prepare_at: 0.6, compact_tool: { enabled: true, min_turns_between: 1 } },
        summarizer: new OpenAICompatibleSummarizer({ baseUrl: summaries.baseUrl, apiKey: "sk-fixture", model: "summary-model" }),
        tokenCounter: new RoughTokenCounter(),
        store,
      });
    try {
      const asking = new CompactionSession({ engine: engine(), store, sessionId: "s-asked", platform: "gateway" });
      asking.append([{ role: "system", content: "You are a coding agent." }, ...readRounds(6, "a")]);
      expect(JSON.parse(await asking.handleToolCall("compact_context", { focus: "the parser port" }))).toMatchObject({ accepted: true });
      const asked = await runCli(["sessions", "show", "s-asked", "--db", db], dir);
      expect(asked.stdout).toMatch(/^ {2}pending: compact_context request \(focus: "the parser port"\) for engine '.+', made \d{4}-\d\d-\d\d \d\d:\d\d: the next turn compacts$/m);
      // another worker's turn boundary takes it: nothing is pending any more
      const other = engine();
      expect(await takeCompactionRequest(other, "s-asked")).toEqual({ focus: "the parser port" });
      expect((await runCli(["sessions", "show", "s-asked", "--db", db], dir)).stdout).not.toContain("pending:");

      summaries.setDefault({ kind: "delay", ms: 1_500, then: { kind: "success", content: SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n") } });
      const preparing = new CompactionSession({ engine: engine(), store, sessionId: "s-prepared", platform: "gateway" });
      preparing.append([{ role: "system", content: "You are a coding agent." }, ...readRounds(20, "p")]);
      expect((await preparing.maybeCompress({ promptTokens: 8_000 })).preparation?.state).toBe("started");
      await new Promise((tick) => setTimeout(tick, 200));
      const during = await runCli(["sessions", "show", "s-prepared", "--db", db, "--json"], dir);
      const pendingNow = (JSON.parse(during.stdout) as { pending: { kind: string; messages?: number }[] }).pending;
      expect(pendingNow).toEqual([expect.objectContaining({ kind: "preparing", messages: 81 })]);
      await new Promise((tick) => setTimeout(tick, 2_000));
      const ready = await runCli(["sessions", "show", "s-prepared", "--db", db], dir);
      expect(ready.stdout).toMatch(/^ {2}pending: summary of the first 81 messages prepared in the background for engine '.+', saved .+: the trigger applies it$/m);
      expect(ready.stdout).not.toContain("is preparing");
    } finally {
      store.close();
      await summaries.close();
    }
  });

  it("says where it looked when there is no store, and refuses an unknown subcommand with exit 2", async () => {
    const empty = tempDir();
    const missing = await runCli(["sessions", "list"], empty);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no session store at ${join(empty, "sessions.db")} (pass --db <file>, or fill it with \`context-engine sessions import <transcript>\`)`);
    const unknown = await runCli(["sessions", "purge", "--db", join(dir, "sessions.db")], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("expects one of list, search, show, import, got 'purge'");
    const noSession = await runCli(["sessions", "show", "nope"], dir);
    expect([noSession.code, noSession.stderr.trim()]).toEqual([1, "context-engine sessions: no session 'nope' in scope 'default' (--scope <id>, or --all-scopes for every scope)"]);
  });
});

describe("context-engine sessions import", () => {
  const sweAgent = join(repoRoot, "test/fixtures/raw/swe-agent/trajectories/demonstrations/function_calling_simple.traj");

  it("fills ./sessions.db from a transcript in any format import reads, which sessions search then finds without --db", async () => {
    const cwd = tempDir();
    const imported = await runCli(["sessions", "import", sweAgent, "--session", "swe-demo"], cwd);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect(imported.stdout.trim()).toBe(`${sweAgent} (swe-agent) → ${join(cwd, "sessions.db")}: session swe-demo, 12 messages`);
    expect(existsSync(join(cwd, "sessions.db"))).toBe(true);
    const found = await runCli(["sessions", "search", "missing_colon"], cwd);
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/^swe-demo {2}function_calling_simple\.traj$/m);
    expect(found.stdout).toMatch(/^ {2}> +3 assistant .*missing_colon\.py/m);
    const listed = await runCli(["sessions", "list"], cwd);
    expect(listed.stdout).toMatch(/^swe-demo .* import {2}12\/12 active {2}function_calling_simple\.traj$/m);
  });

  it("adds each import as a new session beside the ones stored, and refuses an id already taken", async () => {
    const cwd = tempDir();
    const db = join(cwd, "mine.db");
    expect((await runCli(["sessions", "import", bundledTranscript, "--db", db, "--session", "port"], cwd)).code).toBe(0);
    expect((await runCli(["sessions", "import", sweAgent, "--db", db, "--platform", "swe", "--scope", "team-b"], cwd)).code).toBe(0);
    const store = openSqliteStore(db);
    try {
      const sessions = store.listSessions({});
      expect(sessions.map((s) => s.platform).sort()).toEqual(["import", "swe"]);
      expect(sessions.map((s) => s.scope).sort()).toEqual(["default", "team-b"]);
      expect(store.activeRows("port").length).toBe(JSON.parse(readFileSync(bundledTranscript, "utf8")).length);
    } finally {
      store.close();
    }
    const again = await runCli(["sessions", "import", sweAgent, "--db", db, "--session", "port"], cwd);
    expect([again.code, again.stderr.trim()]).toEqual([1, `context-engine sessions: ${db} already holds a session 'port' (pick another --session)`]);
    const noFile = await runCli(["sessions", "import", "--db", db], cwd);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("context-engine sessions: import expects exactly one transcript file");
  });

  it("uses one default store file in the README and the CLI: sessions.db", async () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    // a file name, or an absolute path to it where an MCP client starts the command
    const named = [...readme.matchAll(/--db ([^\s`);]+)|openSqliteStore\("([^"]+)"\)/g)].map((m) => basename(m[1] ?? m[2]!));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set(["sessions.db"]));
    expect(readme).toContain("context-engine sessions import ");
    const help = await runCli(["sessions", "--help"]);
    expect(help.stdout).toMatch(/--db <file> .*\(default: \.\/sessions\.db\)/);
  });
});
