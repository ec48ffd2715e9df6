import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { conversation, makeEngine, tempDir } from "./support.js";

describe("ignore_sessions", () => {
  let dir: { dir: string; cleanup: () => void };
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.cleanup());

  it("stores nothing of a session whose id matches a pattern and hands its messages back unchanged", async () => {
    const engine = makeEngine(dir.dir, { config: { ignore_sessions: ["cron-*", "probe?"] } });
    for (const session of ["cron-nightly", "probe1"]) {
      engine.onSessionStart(session);
      const input = conversation(40);
      expect(await engine.compress(input)).toBe(input);
      expect(await engine.compress(input, { force: true, sessionId: session })).toBe(input);
      expect(await engine.ingest(input)).toEqual([]);
      await engine.onSessionEnd(session, input);
    }
    engine.onSessionStart("probe12");
    await engine.compress(conversation(40));
    expect(engine.store.sessions()).toEqual(["probe12"]);
    expect(engine.compressionCount).toBe(1);
    engine.close();
  });

  it("rejects a pattern list that is not a list of strings, naming the key", () => {
    expect(() => makeEngine(dir.dir, { config: { ignore_sessions: "cron-*" } })).toThrow(/lcm\.ignore_sessions/);
  });
});
