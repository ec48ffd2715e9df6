import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { createHostHooks, createRouteHooks, type CompactionTrigger, type SessionCompressEvent } from "../../src/host/hooks.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";
import { agentRounds, system } from "../compressor/fixtures.js";

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "route-compaction-"));
  store = openSqliteStore(join(dir, "sessions.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const engine = () => new ContextCompressor({ compression: { protect_last_n: 4 }, model: { model: "house-model", contextLength: 200_000 }, tokenCounter: new RoughTokenCounter(), summarizer: new ExtractiveSummarizer() });

/** Route hooks with one route that owns every session: it compacts on a manual request only, on its "server". */
function houseRoute() {
  const compacted: CompactionTrigger[] = [];
  const routes = createRouteHooks();
  routes.sessionCompaction.tap("house", () => ({
    decide: (trigger) => (trigger === "manual" ? "compact" : "skip"),
    compact: async ({ trigger, messages }) => {
      compacted.push(trigger);
      return { trigger, messageCount: messages.length, hostStarted: true };
    },
  }));
  return { routes, compacted };
}

describe("CompactionSession when a route takes the compaction over", () => {
  it("lets the route's server compact, records a boundary and keeps the transcript, on a manual /compress", async () => {
    const { routes, compacted } = houseRoute();
    const events: SessionCompressEvent[] = [];
    const hooks = createHostHooks();
    hooks.sessionCompress.tap("test", (event) => void events.push(event));
    const s = new CompactionSession({ engine: engine(), store, platform: "cli", routes, hooks });
    s.append([system("sys"), ...agentRounds(8, 2_000)]);
    const transcript = s.messages();
    const result = await s.maybeCompress({ force: true });
    expect(compacted).toEqual(["manual"]);
    expect(result).toMatchObject({ outcome: "compressed", inPlace: true, compressionCount: 1, messagesBefore: 33, messagesAfter: 33 });
    expect(s.messages()).toEqual(transcript);
    expect(store.compactions(s.sessionId)).toMatchObject([{ transcriptRewritten: false, report: { appServer: { trigger: "manual", messageCount: 33, hostStarted: true } } }]);
    expect(events).toEqual([{ platform: "cli", session_id: s.sessionId, old_session_id: "", in_place: true, compression_count: 1 }]);
  });

  it("reports not_needed and starts nothing when the route leaves an automatic compaction to itself", async () => {
    const { routes, compacted } = houseRoute();
    const s = new CompactionSession({ engine: engine(), store, platform: "cli", routes });
    s.append([system("sys"), ...agentRounds(8, 2_000)]);
    expect(await s.maybeCompress({ promptTokens: 190_000 })).toMatchObject({ outcome: "not_needed", compressionCount: 0 });
    expect(compacted).toEqual([]);
  });

  it("follows the host's codex: section on an app-server model (off: no automatic compaction)", async () => {
    const host = await createContextHost({
      config: { model: { default: "gpt-5.5", provider: "openai-codex", api_mode: "codex_app_server" }, codex: { app_server_auto: "off" } } as never,
      rootDir: dir,
      tokenCounter: new RoughTokenCounter(),
    });
    const calls: string[] = [];
    const s = new CompactionSession({ host, store, platform: "cli", appServerThread: { compact: async () => void calls.push("compact") } });
    s.append([system("sys"), ...agentRounds(4, 2_000)]);
    expect(await s.maybeCompress({ promptTokens: 270_000 })).toMatchObject({ outcome: "not_needed" });
    expect(calls).toEqual([]);
    expect(await s.maybeCompress({ force: true })).toMatchObject({ outcome: "compressed" });
    expect(calls).toEqual(["compact"]);
  });
});
