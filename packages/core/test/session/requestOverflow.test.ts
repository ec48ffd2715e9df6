import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { validateConversation } from "../../src/messages/validate.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

const WINDOW = 32_000;
const counter = new TiktokenCounter();

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "request-overflow-"));
  store = openSqliteStore(join(dir, "sessions.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function fileBody(turn: number): string {
  return Array.from({ length: 40 }, (_, i) => `def handler_${turn}_${i}(request):\n    return compute_value_${i}(request, retries=${(turn * i) % 7})`).join("\n");
}

/** One round of the agent: an ask, a read_file call, its ~800-token result, the answer. */
function round(t: number): ChatMessage[] {
  const id = `call_${t}`;
  return [
    { role: "user", content: `Task ${t}: fix handler ${t} in src/module_${t}.py.` },
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/module_${t}.py` }) } }] },
    { role: "tool", tool_call_id: id, content: fileBody(t) },
    { role: "assistant", content: `Fixed handler_${t}; tests/test_module_${t}.py passes.` },
  ];
}

function buildLog(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `line ${i}: request ${i * 7} took ${i % 13} ms`).join("\n");
}

/** The host's loop around one request: check, send (the usage is the exact count of what was sent), keep the answer. */
async function request(session: CompactionSession, engine: ContextCompressor) {
  const result = await session.maybeCompress();
  const sent = session.messages();
  const promptTokens = counter.countMessages(sent);
  engine.updateFromResponse({ prompt_tokens: promptTokens, completion_tokens: 50 });
  return { result, sent, promptTokens };
}

describe("CompactionSession before a request whose estimate crosses the window less the output reserve", () => {
  it("compacts when a tool output arrived after the last usage report, though that report is below the trigger", async () => {
    const engine = new ContextCompressor({ model: { model: "claude-sonnet-4", contextLength: WINDOW }, tokenCounter: counter, summarizer: new ExtractiveSummarizer() });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    session.append([{ role: "system", content: "You are a careful coding agent." }, ...Array.from({ length: 24 }, (_, t) => round(t)).flat(), { role: "user", content: "Read the build log." }]);
    const first = await request(session, engine);
    expect(first.result.outcome).toBe("not_needed");
    expect(first.promptTokens).toBeLessThan(engine.thresholdTokens);
    session.append([
      { role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "build.log" }) } }] },
      { role: "tool", tool_call_id: "log", content: buildLog(700) },
    ]);
    // without the check the next request would cross the line
    expect(counter.countMessages(session.messages())).toBeGreaterThan(engine.requestLimitTokens);
    expect(engine.shouldCompress()).toBe(false);

    const second = await request(session, engine);
    expect(second.result.outcome).toBe("compressed");
    expect(second.promptTokens).toBeLessThanOrEqual(engine.requestLimitTokens);
    expect(second.sent.at(-1)).toMatchObject({ role: "tool", content: buildLog(700) });
    expect(validateConversation(second.sent)).toEqual([]);
  });

  it("lets a request through that stays below the line and the trigger", async () => {
    const engine = new ContextCompressor({ model: { model: "claude-sonnet-4", contextLength: WINDOW }, tokenCounter: counter, summarizer: new ExtractiveSummarizer() });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    session.append([{ role: "system", content: "You are a careful coding agent." }, ...round(0), { role: "user", content: "Read the build log." }]);
    await request(session, engine);
    session.append([
      { role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "build.log" }) } }] },
      { role: "tool", tool_call_id: "log", content: buildLog(100) },
    ]);
    expect((await request(session, engine)).result.outcome).toBe("not_needed");
  });

  it("clears a newest tool output larger than the window itself, so the request fits", async () => {
    const engine = new ContextCompressor({ model: { model: "claude-sonnet-4", contextLength: WINDOW }, tokenCounter: counter, summarizer: new ExtractiveSummarizer() });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    session.append([{ role: "system", content: "You are a careful coding agent." }, { role: "user", content: "Read the build log." }]);
    await request(session, engine);
    session.append([
      { role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "build.log" }) } }] },
      { role: "tool", tool_call_id: "log", content: buildLog(4_000) },
    ]);
    const { result, sent, promptTokens } = await request(session, engine);
    expect(result.outcome).toBe("compressed");
    expect(result.report?.clearedToFitLine).toBe(1);
    expect(promptTokens).toBeLessThanOrEqual(engine.requestLimitTokens);
    expect(String(sent.at(-1)!.content)).toMatch(/^\[Old tool output cleared to save context space\] \[read_file\]/);
    expect(validateConversation(sent)).toEqual([]);
  });

  it("compacts under cache-aware timing too, which defers at a warm cache but never past the line", async () => {
    const engine = new ContextCompressor({ compression: { timing: "cache_aware" }, model: { model: "claude-sonnet-4", contextLength: WINDOW }, tokenCounter: counter, summarizer: new ExtractiveSummarizer() });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    const history: ChatMessage[] = [{ role: "system", content: "You are a careful coding agent." }];
    for (let t = 0; counter.countMessages(history) < 26_000; t++) history.push(...round(t));
    // an ask that brings the request just past the trigger (27,200), well below the line (28,800)
    const room = engine.thresholdTokens + 200 - counter.countMessages(history);
    history.push({ role: "user", content: `Read the build log. ${"note ".repeat(room)}` });
    session.append(history);
    expect((await session.maybeCompress()).outcome).toBe("not_needed");
    const sent = counter.countMessages(session.messages());
    expect(sent).toBeGreaterThanOrEqual(engine.thresholdTokens);
    expect(sent).toBeLessThan(engine.requestLimitTokens - 1_000);
    // the provider read most of it from its cache: warm, so the timing defers the compaction the trigger asks for
    engine.updateFromResponse({ input_tokens: 1_000, cache_read_input_tokens: sent - 1_000, cache_creation_input_tokens: 0, output_tokens: 50 });
    expect(engine.shouldCompressInfo()).toMatchObject({ should: false, reason: "cache_warm" });
    expect((await session.maybeCompress()).outcome).toBe("not_needed");

    session.append([
      { role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "build.log" }) } }] },
      { role: "tool", tool_call_id: "log", content: buildLog(250) },
    ]);
    expect(counter.countMessages(session.messages())).toBeGreaterThan(engine.requestLimitTokens);
    const result = await session.maybeCompress();
    expect(result.outcome).toBe("compressed");
    expect(counter.countMessages(session.messages())).toBeLessThanOrEqual(engine.requestLimitTokens);
  });

  it("keeps an ask larger than the window whole: the turns before it are compacted, the user's words are not cut, and the request stays over the line", async () => {
    const engine = new ContextCompressor({ model: { model: "claude-sonnet-4", contextLength: WINDOW }, tokenCounter: counter, summarizer: new ExtractiveSummarizer() });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    const pasted: ChatMessage = { role: "user", content: `Why does this fail?\n${buildLog(3_000)}` };
    session.append([{ role: "system", content: "You are a careful coding agent." }, ...round(0), pasted]);
    const result = await session.maybeCompress();
    expect(result.outcome).toBe("compressed");
    expect(result.report?.stillAboveThreshold).toBe(true);
    expect(session.messages().at(-1)).toEqual(pasted);
    expect(counter.countMessages(session.messages())).toBeGreaterThan(WINDOW);
  });
});
