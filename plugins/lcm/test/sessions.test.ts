import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer, SUMMARY_SECTIONS } from "@context-engine/core";
import type { ChatMessage } from "../src/core.js";
import type { LcmEngine } from "../src/engine.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { makeEngine, tempDir } from "./support.js";

/** A template summary naming `word`, so a leak shows up as that word. */
const summaryMentioning = (word: string) => SUMMARY_SECTIONS.map((h) => `${h}\n- ${word}`).join("\n");

/** One user's conversation: every turn names `who`. */
function conversationOf(who: string, turns = 20): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: "You are a careful coding agent." }];
  for (let t = 0; t < turns; t++) {
    const id = `${who}_call_${t}`;
    out.push({ role: "user", content: `${who} turn ${t}: improve the ${who} module, file src/${who}_${t}.ts.` });
    out.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${who}_${t}.ts` }) } }] });
    out.push({ role: "tool", tool_call_id: id, content: `// src/${who}_${t}.ts\n` + `export const ${who}${t} = "${who} payload";\n`.repeat(12) });
    out.push({ role: "assistant", content: `Updated src/${who}_${t}.ts for ${who}.` });
  }
  return out;
}

let server: FixtureServer;
let dir: string;
let cleanup: () => void;
let engine: LcmEngine;

beforeAll(async () => {
  server = await startOpenAIFixtureServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
  engine = makeEngine(dir, { summarizer });
});
afterEach(() => {
  engine.close();
  cleanup();
});

const requestsSince = (from: number) => server.requests.slice(from).map((r) => JSON.stringify(r.body?.messages ?? [])).join("\n");

describe("lcm sessions", () => {
  it("keeps two sessions interleaved on one engine apart: stores, summaries and summarizer requests", async () => {
    engine.onSessionStart("alice");
    engine.onSessionStart("bob");
    server.setDefault({ kind: "success", content: summaryMentioning("alice-secret-417") });
    const aliceOut = await engine.compress(conversationOf("alice"), { sessionId: "alice" });
    expect(engine.compressionCount).toBe(1);

    const bobStart = server.requests.length;
    server.setDefault({ kind: "success", content: summaryMentioning("bob-secret-929") });
    const bobOut = await engine.compress(conversationOf("bob"), { sessionId: "bob" });
    expect(server.requests.length).toBeGreaterThan(bobStart);
    expect(requestsSince(bobStart)).not.toMatch(/alice/);
    expect(JSON.stringify(bobOut)).not.toMatch(/alice/);
    expect(JSON.stringify(aliceOut)).not.toMatch(/bob/);
    expect(engine.store.messageCount("alice")).toBe(80);
    expect(engine.store.messageCount("bob")).toBe(80);
  });

  it("forgets an ended session: later calls without a session id no longer go to it", async () => {
    server.setDefault({ kind: "success", content: summaryMentioning("alice-secret-417") });
    engine.onSessionStart("alice");
    const aliceIn = conversationOf("alice");
    const aliceOut = await engine.compress(aliceIn);
    await engine.onSessionEnd("alice", aliceIn);
    expect(engine.sessionId).toBe("default");

    server.setDefault({ kind: "success", content: summaryMentioning("carol-note") });
    const carolOut = await engine.compress(conversationOf("carol"));
    expect(JSON.stringify(carolOut)).not.toMatch(/alice/);
    expect(engine.store.messageCount("alice")).toBe(80);
    // alice's history is still there, losslessly, under her id
    expect(await engine.assemble([], "alice")).toEqual(aliceOut.slice(1));
  });
});
