import { describe, expect, it } from "vitest";
import {
  APP_SERVER_COMPACT_METHOD,
  appServerCompactionPolicy,
  appServerThread,
  compactViaAppServer,
  isAppServerSession,
  recordAppServerCompaction,
  type AppServerCompactionBoundary,
  type AppServerThread,
} from "../../src/codex/appServer.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const transcript: ChatMessage[] = [
  { role: "system", content: "You are codex." },
  { role: "user", content: "fix the build" },
  { role: "assistant", content: "done" },
];

/** A thread whose compaction finishes only when `finish()` is called, recording what happened in order. */
function controllableThread(log: string[]): AppServerThread & { finish(): void } {
  let finish = () => {};
  return {
    compact() {
      log.push("compact started");
      return new Promise<void>((resolve) => {
        finish = () => {
          log.push("compact finished");
          resolve();
        };
      });
    },
    finish: () => finish(),
  };
}

describe("appServerCompactionPolicy", () => {
  it.each([
    ["native", "manual", false, "delegate_and_wait"],
    ["hermes", "manual", false, "delegate_and_wait"],
    ["off", "manual", true, "delegate_and_wait"],
    ["native", "auto", true, "record_only"],
    ["native", "auto", false, "record_only"],
    ["hermes", "auto", true, "delegate"],
    ["hermes", "auto", false, "skip"],
    ["off", "auto", true, "skip"],
    ["off", "auto", false, "skip"],
  ] as const)("mode %s, trigger %s, host threshold reached %s → %s", (mode, trigger, reached, action) => {
    expect(appServerCompactionPolicy(mode, trigger, reached)).toBe(action);
  });
});

describe("app-server compaction", () => {
  it("recognises app-server sessions by api_mode", () => {
    expect(isAppServerSession({ apiMode: "codex_app_server" })).toBe(true);
    expect(isAppServerSession({ apiMode: "codex_responses" })).toBe(false);
    expect(isAppServerSession({})).toBe(false);
  });

  it("manual /compress asks the app-server, waits for it, records the boundary and leaves the transcript intact", async () => {
    const log: string[] = [];
    const thread = controllableThread(log);
    const boundaries: AppServerCompactionBoundary[] = [];
    const before = structuredClone(transcript);
    const running = compactViaAppServer(thread, transcript, {
      trigger: "manual",
      recordBoundary: (b) => {
        log.push("boundary recorded");
        boundaries.push(b);
      },
    });
    await Promise.resolve();
    expect(log).toEqual(["compact started"]);
    thread.finish();
    const result = await running;
    expect(log).toEqual(["compact started", "compact finished", "boundary recorded"]);
    expect(result).toBe(transcript);
    expect(transcript).toEqual(before);
    expect(boundaries).toEqual([{ trigger: "manual", messageCount: 3, hostStarted: true }]);
  });

  it("records nothing when the app-server compaction fails", async () => {
    const boundaries: AppServerCompactionBoundary[] = [];
    const failing: AppServerThread = { compact: () => Promise.reject(new Error("thread busy")) };
    await expect(compactViaAppServer(failing, transcript, { trigger: "manual", recordBoundary: (b) => void boundaries.push(b) })).rejects.toThrow("thread busy");
    expect(boundaries).toEqual([]);
  });

  it("records a compaction the app-server did on its own as not host-started", async () => {
    const boundaries: AppServerCompactionBoundary[] = [];
    await recordAppServerCompaction(transcript, (b) => void boundaries.push(b));
    expect(boundaries).toEqual([{ trigger: "auto", messageCount: 3, hostStarted: false }]);
  });

  it("compacts a thread through thread/compact/start with its thread id", async () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    const thread = appServerThread({ request: async (method, params) => void calls.push([method, params]) }, "thr_42");
    await thread.compact();
    expect(APP_SERVER_COMPACT_METHOD).toBe("thread/compact/start");
    expect(calls).toEqual([["thread/compact/start", { threadId: "thr_42" }]]);
  });
});
