import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

/** The ids of the summaries in an assembled context's summary block. */
function blockSummaryIds(output: readonly ChatMessage[]): string[] {
  const block = output.find((m) => typeof m.content === "string" && m.content.includes("<summary id="));
  return block ? [...(block.content as string).matchAll(/<summary id="(sum_[0-9a-f]+)"/g)].map((m) => m[1]!) : [];
}

describe("after /new (lcm.new_session_retain_depth)", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  const start = async (config: Record<string, unknown> = {}) => {
    engine = makeEngine(dir.dir, { config });
    engine.onSessionStart("alice");
    await engine.compress(conversation(60));
    await engine.onSessionReset(); // /new: alice~1
  };
  const deepIn = async (session: string, depth: number) =>
    (await Promise.all(engine.store.contextSummaryIds(session).map((id) => engine.store.getSummary(id)))).filter((s) => s !== undefined && (depth === -1 || s.depth >= depth)).map((s) => s!.id);
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });
  const firstTurn: ChatMessage[] = [
    { role: "system", content: "You are a careful coding agent." },
    { role: "user", content: "New day: what did we settle about the parser?" },
  ];

  it("starts the new session with the previous session's summaries of depth 2 and deeper in context, by default", async () => {
    await start();
    expect(engine.sessionId).toBe("alice~1");
    const deep = await deepIn("alice", 2);
    expect(deep.length).toBeGreaterThan(0);
    const shallow = (await deepIn("alice", -1)).filter((id) => !deep.includes(id));
    expect(shallow.length).toBeGreaterThan(0);
    const output = await engine.compress(firstTurn);
    expect(blockSummaryIds(output)).toEqual(deep);
    expect(output[0]).toEqual(firstTurn[0]);
    expect(JSON.stringify(output.at(-1))).toContain("New day: what did we settle about the parser?");
    // the host holds them from now on: the next turn is not changed below the threshold
    const next = [...output, { role: "assistant", content: "We kept the zeta invariant." } as ChatMessage, { role: "user", content: "Good." } as ChatMessage];
    expect(await engine.compress(next)).toEqual(next);
    expect(engine.store.messageCount("alice~1")).toBe(3);
  });

  it("lets lcm_expand and lcm_describe open a carried summary from the new session", async () => {
    await start();
    await engine.compress(firstTurn);
    const [carried] = await deepIn("alice~1", 2);
    const page = parseResult(await engine.handleToolCall("lcm_expand", { id: carried, maxTokens: 20_000 }));
    expect(page.error).toBeUndefined();
    expect(page.items.length).toBeGreaterThan(0);
    expect(parseResult(await engine.handleToolCall("lcm_describe", { id: carried }))).toMatchObject({ type: "summary", session: "alice" });
  });

  it("keeps carried summaries as they are while the new session compacts, and the doctor finds nothing wrong", async () => {
    await start();
    const carried = await deepIn("alice~1", 2);
    await engine.compress(conversation(60, { from: 100 }));
    const items = engine.store.contextItems("alice~1");
    expect(items.slice(0, carried.length).map((i) => i.id)).toEqual(carried);
    expect(engine.store.allSummaries("alice~1").length).toBeGreaterThan(0);
    const report = await engine.doctor();
    expect(report.problems).toEqual([]);
    // a /new from here carries them on, with the new session's own deep summaries
    const again = await deepIn("alice~1", 2);
    await engine.onSessionReset();
    expect(engine.sessionId).toBe("alice~2");
    expect(engine.store.contextSummaryIds("alice~2")).toEqual(again);
  });

  it("carries every summary with -1 and none with 0", async () => {
    await start({ new_session_retain_depth: -1 });
    expect(engine.store.contextSummaryIds("alice~1")).toEqual(await deepIn("alice", -1));
    engine.close();
    dir.cleanup();
    dir = tempDir();
    await start({ new_session_retain_depth: 0 });
    expect(engine.store.contextSummaryIds("alice~1")).toEqual([]);
    expect(await engine.compress(firstTurn)).toEqual(firstTurn);
  });
});
