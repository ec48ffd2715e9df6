import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

describe("recall across /new and other sessions", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  beforeEach(async () => {
    dir = tempDir();
    // nothing carried over by /new: alice's summaries stay alice's alone (see newSessionRetain.test.ts)
    engine = makeEngine(dir.dir, { config: { new_session_retain_depth: 0 } });
    engine.onSessionStart("alice");
    await engine.compress(conversation(30)); // zeta0..zeta29, compacted
    await engine.onSessionReset(); // /new: alice~1
    await engine.compress(conversation(3, { from: 100 }));
    engine.onSessionStart("bob");
    await engine.compress(conversation(3, { from: 200 }));
    engine.onSessionStart("alice~1");
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });
  const call = async (name: string, args: unknown) => parseResult(await engine.handleToolCall(name, args));

  it("lcm_grep searches the current session by default, the conversation's earlier sessions or all of them when asked", async () => {
    expect(engine.sessionId).toBe("alice~1");
    expect((await call("lcm_grep", { pattern: "zeta7", scope: "messages" })).count).toBe(0);
    const earlier = await call("lcm_grep", { pattern: "zeta7", scope: "messages", sessions: "conversation" });
    expect(earlier.count).toBe(2);
    expect(earlier.matches.every((m: { session: string; coveredBy: string | null }) => m.session === "alice" && m.coveredBy?.startsWith("sum_"))).toBe(true);
    expect((await call("lcm_grep", { pattern: "zeta201", sessions: "conversation" })).count).toBe(0);
    const all = await call("lcm_grep", { pattern: "zeta201", scope: "messages", sessions: "all" });
    expect(all.matches.map((m: { session: string }) => m.session)).toEqual(["bob", "bob"]);
    expect((await call("lcm_grep", { pattern: "zeta7", mode: "regex", sessions: "conversation", scope: "messages" })).count).toBe(2);
  });

  it("lcm_expand and lcm_describe reach a record of an earlier session only within the sessions asked for", async () => {
    const hit = (await call("lcm_grep", { pattern: "zeta7", scope: "messages", sessions: "conversation" })).matches[0];
    expect(await call("lcm_expand", { id: hit.coveredBy })).toMatchObject({ code: "not_found" });
    const page = await call("lcm_expand", { id: hit.coveredBy, sessions: "conversation", maxTokens: 100_000 });
    expect(page.error).toBeUndefined();
    expect(JSON.stringify(page)).toContain("zeta7");
    expect(await call("lcm_describe", { id: hit.id, sessions: "conversation" })).toMatchObject({ type: "message", session: "alice", coveredBy: hit.coveredBy });
    const overview = await call("lcm_describe", { sessions: "conversation" });
    expect(overview.sessions.map((s: { session: string; current: boolean }) => [s.session, s.current])).toEqual([["alice", false], ["alice~1", true]]);
  });

  it("refuses sessions: all when lcm.search_all_sessions is off", async () => {
    engine.close();
    engine = makeEngine(dir.dir, { config: { search_all_sessions: false } });
    engine.onSessionStart("alice~1");
    expect(await call("lcm_grep", { pattern: "zeta201", sessions: "all" })).toMatchObject({ code: "invalid_arguments" });
    expect((await call("lcm_grep", { pattern: "zeta7", sessions: "conversation", scope: "messages" })).count).toBe(2);
  });
});
