/**
 * The lcm engine on the PostgreSQL lcm store, end to end on a real server this file starts: a
 * conversation past the threshold compacts into a summary DAG (offline, and through the loopback
 * OpenAI summarizer), the output stays valid, the tools find and recover compacted turns verbatim, a
 * second worker on the same database carries the session on, two engines compacting one session at
 * once leave one valid DAG, and a host chooses the store by `lcm.database_url`, opened by this package
 * listed in `plugins:` as a store driver.
 */
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createContextHost, ExtractiveSummarizer, OpenAICompatibleSummarizer, validateConversation, type ChatMessage, type Summarizer } from "@context-engine/core";
import { LcmEngine, type LcmStoreAsync } from "@context-engine/lcm";
import { conversation, CountingSummarizer, SMALL_CONFIG } from "../../../plugins/lcm/test/support.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { openPostgresLcmStore, type PostgresLcmStore } from "../src/index.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";

// the package folders: the host resolves a folder in plugins: through its package.json
const LCM_PLUGIN_DIR = fileURLToPath(new URL("../../../plugins/lcm", import.meta.url));
const POSTGRES_PLUGIN_DIR = fileURLToPath(new URL("..", import.meta.url));

let server: TestPostgres;
let openai: FixtureServer;
beforeAll(async () => {
  [server, openai] = await Promise.all([startTestPostgres(), startOpenAIFixtureServer()]);
}, 180_000);
afterAll(async () => {
  await Promise.all([server?.stop(), openai?.close()]);
});

/** An engine over `store` sized so that 40 turns compact to several levels (the lcm tests' small settings). */
function engineOn<S extends LcmStoreAsync>(store: S, options: { summarizer?: Summarizer; session?: string } = {}): LcmEngine<S> {
  let clock = 1_700_000_000_000;
  return new LcmEngine<S>({ store, config: { ...SMALL_CONFIG, ...(options.session ? { session: options.session } : {}) }, model: { model: "test-model", contextLength: 4_000 }, now: () => (clock += 1_000), ...(options.summarizer ? { summarizer: options.summarizer } : {}) });
}

async function tool(engine: LcmEngine<LcmStoreAsync>, name: string, args: Record<string, unknown>): Promise<any> {
  return JSON.parse(await engine.handleToolCall(name, args));
}

/** The original messages under a summary, expanding condensed nodes through lcm_expand. */
async function messagesUnder(engine: LcmEngine<LcmStoreAsync>, id: string): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page = await tool(engine, "lcm_expand", { id, offset, maxTokens: 4_000 });
    expect(page.error).toBeUndefined();
    for (const item of page.items) out.push(...(item.type === "message" ? [item.message] : await messagesUnder(engine, item.id)));
    offset = page.nextOffset;
  }
  return out;
}

describe("the lcm engine on PostgreSQL", () => {
  let url: string;
  let store: PostgresLcmStore;
  beforeEach(async () => {
    url = await server.createDatabase();
    store = await openPostgresLcmStore({ connectionString: url });
    return () => store.close();
  });

  it("compacts past the threshold into a DAG of summaries, keeps the output valid, and recovers a compacted turn verbatim with the tools", async () => {
    const engine = engineOn(store);
    const input = conversation(40);
    const output = await engine.compress(input);
    expect(output.length).toBeLessThan(input.length);
    expect(validateConversation(output)).toEqual([]);
    expect(engine.tokenCounter.countMessages(output)).toBeLessThanOrEqual(engine.targetTokens);
    const summaries = await store.allSummaries("default");
    expect(Math.max(...summaries.map((s) => s.depth))).toBeGreaterThanOrEqual(2);
    expect(await store.messageCount("default")).toBe(160);
    expect(await engine.assemble([input[0]!])).toEqual(output);

    const grep = await tool(engine, "lcm_grep", { pattern: "zeta3 invariant", mode: "regex", scope: "messages" });
    expect(grep.count).toBe(2);
    const hit = grep.matches.find((m: { role: string }) => m.role === "user");
    expect(hit).toMatchObject({ type: "message", seq: 13 });
    expect(hit.coveredBy).toMatch(/^sum_/);
    const described = await tool(engine, "lcm_describe", { id: hit.coveredBy });
    expect(described).toMatchObject({ type: "summary", inContext: true });
    expect(await messagesUnder(engine, hit.coveredBy)).toContainEqual(input[13]);
    expect(await tool(engine, "lcm_expand", { id: hit.id })).toMatchObject({ type: "message", message: input[13] });
    const words = await tool(engine, "lcm_grep", { pattern: "cache module", scope: "both", limit: 50 });
    expect(words.matches.map((m: { id: string }) => m.id)).toContain(hit.id);
    expect(words.matches.some((m: { type: string }) => m.type === "summary")).toBe(true);

    const report = await engine.doctor();
    expect(report).toMatchObject({ ok: true, sessions: 1, messages: 160, problems: [] });
    expect(report.skipped).toEqual([expect.stringMatching(/missing_index_row: not checked/)]);
  });

  it("lets a second worker on the same database carry the session on", async () => {
    const first = engineOn(store);
    const input = conversation(40);
    const output = await first.compress(input);
    const other = await openPostgresLcmStore({ connectionString: url });
    try {
      const second = engineOn(other);
      expect(await second.assemble([input[0]!])).toEqual(output);
      const next: ChatMessage[] = [...output, { role: "user", content: "Turn 40: what about the kestrel cache?" }];
      expect(await second.ingest(next)).toHaveLength(1);
      expect(await second.ingest(next)).toHaveLength(0);
      expect(await first.ingest([...next, { role: "assistant", content: "The kestrel cache is warm." }])).toHaveLength(1);
      expect((await tool(second, "lcm_grep", { pattern: "kestrel" })).count).toBe(2);
      expect(await other.messageCount("default")).toBe(162);
    } finally {
      await other.close();
    }
  });

  it("archives at session end and starts <id>~1 at /new, searchable together as one conversation", async () => {
    const engine = engineOn(store);
    engine.onSessionStart("alice");
    const input = conversation(40);
    const output = await engine.compress(input);
    await engine.onSessionEnd("alice", [...output, { role: "user", content: "Bye for now." }]);
    expect(await store.messageCount("alice")).toBe(161);
    expect(engine.sessionId).toBe("default");
    engine.onSessionStart("alice");
    await engine.onSessionReset();
    expect(engine.sessionId).toBe("alice~1");
    await engine.compress(conversation(2, { from: 90 }));
    expect((await tool(engine, "lcm_grep", { pattern: "zeta5" })).count).toBe(0);
    const both = await tool(engine, "lcm_grep", { pattern: "zeta5 | zeta91", sessions: "conversation", scope: "messages" });
    expect(new Set(both.matches.map((m: { session: string }) => m.session))).toEqual(new Set(["alice", "alice~1"]));
  });

  it("compacts through the loopback OpenAI summarizer and answers lcm_expand_query with it", async () => {
    openai.requests.length = 0;
    openai.setDefault({ kind: "success", content: "## Goal\n- keep every zeta invariant" });
    const summarizer = new OpenAICompatibleSummarizer({ baseUrl: openai.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
    const engine = engineOn(store, { summarizer });
    const output = await engine.compress(conversation(40));
    expect(validateConversation(output)).toEqual([]);
    expect(openai.requests.length).toBeGreaterThan(0);
    expect((await store.allSummaries("default")).some((s) => s.level === 1 && s.content.includes("keep every zeta invariant"))).toBe(true);
    const answer = await tool(engine, "lcm_expand_query", { prompt: "What holds for zeta3?", query: "zeta3" });
    expect(answer.answer).toMatch(/keep every zeta invariant/);
    expect(answer.sources).toBeGreaterThan(0);
  });

  it("asks the model for lcm_expand_query's answer only after its scoped read has ended: no connection idles in a transaction meanwhile, and no table it read stays locked", async () => {
    const extractive = new ExtractiveSummarizer();
    const idleInTransaction: number[] = [];
    const exclusiveLocks: string[] = [];
    const probing: Summarizer = {
      name: "probing",
      summarize: async (request, signal) => {
        const last = request.messages.at(-1)?.content;
        if (typeof last !== "string" || !last.startsWith("Answer from the conversation above")) return extractive.summarize(request, signal);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'");
          idleInTransaction.push(rows[0]!.n);
          // a read transaction still open would hold ACCESS SHARE on the tables it read: this would wait for it
          await client.query("SET lock_timeout = '2s'");
          await client.query("BEGIN");
          await client.query("LOCK TABLE context_engine.lcm_messages, context_engine.lcm_summaries, context_engine.lcm_summary_sources, context_engine.lcm_context_items IN ACCESS EXCLUSIVE MODE");
          exclusiveLocks.push("taken");
          await client.query("ROLLBACK");
        } finally {
          await client.end();
        }
        return "zeta3 holds";
      },
    };
    const engine = engineOn(store, { summarizer: probing });
    await engine.compress(conversation(40));
    const answer = await tool(engine, "lcm_expand_query", { prompt: "What holds for zeta3?", query: "zeta3" });
    expect(answer.answer).toBe("zeta3 holds");
    expect(answer.sources).toBeGreaterThan(0);
    expect(idleInTransaction).toEqual([0]);
    expect(exclusiveLocks).toEqual(["taken"]);
  });

  it("lets one of two engines compacting one session at once do it, leaving one valid DAG", async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const extractive = new ExtractiveSummarizer();
    const gated: Summarizer = { name: "gated", summarize: async (request, signal) => (entered(), await gate, extractive.summarize(request, signal)) };
    const other = await openPostgresLcmStore({ connectionString: url });
    try {
      const first = engineOn(store, { summarizer: gated });
      const counting = new CountingSummarizer();
      const second = engineOn(other, { summarizer: counting });
      const input = conversation(40);
      const compacting = first.compress(input);
      await inside;
      const meanwhile = await second.compress(input);
      expect(counting.calls).toBe(0);
      expect(meanwhile.length).toBe(input.length);
      release();
      const output = await compacting;
      expect(output.length).toBeLessThan(input.length);
      expect(await first.doctor()).toMatchObject({ ok: true, problems: [] });
      expect(await second.assemble([input[0]!])).toEqual(output);
      const next = await second.compress(output, { force: true });
      expect(validateConversation(next)).toEqual([]);
      expect(await second.doctor()).toMatchObject({ ok: true, messages: 160 });
    } finally {
      await other.close();
    }
  });
});

describe("a host configured with context.engine: lcm, lcm.database_url and @context-engine/postgres in plugins:", () => {
  it("runs lcm on the PostgreSQL database the postgres plugin's store driver opens, and writes no SQLite file", async () => {
    const url = await server.createDatabase();
    const dir = mkdtempSync(join(tmpdir(), "lcm-pg-host-"));
    try {
      const config = { context: { engine: "lcm" }, plugins: [POSTGRES_PLUGIN_DIR, LCM_PLUGIN_DIR], lcm: { ...SMALL_CONFIG, database_url: url } };
      const host = await createContextHost({ config: config as never, rootDir: dir, summarizer: new ExtractiveSummarizer(), model: { model: "test-model", contextLength: 4_000 } });
      expect(host.warnings).toEqual([]);
      const engine = host.engine as unknown as LcmEngine<LcmStoreAsync>;
      expect(engine.name).toBe("lcm");
      expect(engine.store.constructor.name).toBe("PostgresLcmStore");
      const output = await engine.compress(conversation(40));
      expect(output.length).toBeLessThan(161);
      expect((await tool(engine, "lcm_grep", { pattern: "zeta7" })).count).toBeGreaterThan(0);
      await engine.close();
      expect(existsSync(join(dir, ".context-engine"))).toBe(false);

      const check = await openPostgresLcmStore({ connectionString: url });
      try {
        expect(await check.messageCount("default")).toBe(160);
      } finally {
        await check.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
