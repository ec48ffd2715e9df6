import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer } from "@context-engine/core";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { conversation, makeEngine, tempDir } from "./support.js";

let server: FixtureServer;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  server = await startOpenAIFixtureServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  server.requests.length = 0;
  server.setDefault({ kind: "status", status: 401 });
});
afterEach(() => cleanup());

const summarizer = () => new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-wrong", model: "summary-model", timeoutMs: 5_000 });

describe("the summarizer circuit breaker", () => {
  it("stops calling a summarizer that refused its credentials (401) and says so once", async () => {
    const warnings: string[] = [];
    const engine = makeEngine(dir, { summarizer: summarizer(), warn: (w) => warnings.push(w) });
    await engine.compress(conversation(40));
    const calls = server.requests.length;
    expect(calls).toBeGreaterThan(0);
    await engine.compress(conversation(60));
    await engine.compress(conversation(80));
    expect(server.requests.length).toBe(calls);
    expect(engine.store.allSummaries("default").every((s) => s.level === 3)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/credentials.*401|401.*credentials/);
    expect(warnings[0]).toMatch(/30 min/);
    engine.close();
  });

  it("answers lcm_expand_query during the pause with a tool error naming the pause, without calling the summarizer", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer(), warn: () => {} });
    await engine.compress(conversation(40));
    const calls = server.requests.length;
    expect(engine.summarizerPausedUntil).toBeGreaterThan(0);
    const result = JSON.parse(await engine.handleToolCall("lcm_expand_query", { prompt: "What holds for zeta3?", query: "zeta3" })) as { code?: string; error?: string };
    expect(server.requests.length).toBe(calls);
    expect(result.code).toBe("unavailable");
    expect(result.error).toMatch(/paused.*lcm\.auth_cooldown_ms/);
    expect(result.error).toMatch(/lcm_expand/);
    engine.close();
  });

  it("tries the summarizer again once auth_cooldown_ms has passed", async () => {
    let clock = 1_700_000_000_000;
    const engine = makeEngine(dir, { summarizer: summarizer(), config: { auth_cooldown_ms: 60_000 }, now: () => clock, warn: () => {} });
    await engine.compress(conversation(40));
    const calls = server.requests.length;
    clock += 30_000;
    await engine.compress(conversation(60));
    expect(server.requests.length).toBe(calls);
    clock += 60_000;
    server.setDefault({ kind: "success", content: "## Goal\n- fixture summary" });
    await engine.compress(conversation(80));
    expect(server.requests.length).toBeGreaterThan(calls);
    expect(engine.store.allSummaries("default").some((s) => s.level === 1)).toBe(true);
    engine.close();
  });

  it("opens the breaker for a custom summarizer that throws a plain error saying 401 or invalid api key", async () => {
    for (const [n, message] of ["Request failed with status 401 Unauthorized", "invalid api key provided", "HTTP 403"].entries()) {
      let calls = 0;
      const custom = {
        name: "custom-llm",
        summarize: async () => {
          calls++;
          throw new Error(message);
        },
      };
      const warnings: string[] = [];
      const engine = makeEngine(dir, { summarizer: custom, warn: (w) => warnings.push(w), config: { session: `custom-${n}` } });
      await engine.compress(conversation(40));
      await engine.compress(conversation(60));
      await engine.compress(conversation(80));
      expect(calls).toBe(1);
      expect(engine.summarizerPausedUntil).toBeGreaterThan(0);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/credentials/);
      engine.close();
    }
  });

  it("keeps calling a custom summarizer whose plain error is not about credentials", async () => {
    let calls = 0;
    const custom = {
      name: "custom-llm",
      summarize: async () => {
        calls++;
        throw new Error("model overloaded, took 4031 ms");
      },
    };
    const engine = makeEngine(dir, { summarizer: custom, warn: () => {} });
    await engine.compress(conversation(40));
    await engine.compress(conversation(60));
    expect(calls).toBe(2);
    expect(engine.summarizerPausedUntil).toBe(0);
    engine.close();
  });
});
