/**
 * lcm sessions belong to someone, on the SQLite store: the scope isolation contract of the agent tools,
 * and a store file written before scopes (schema v3) opened again, its sessions in the default scope.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteStore } from "@context-engine/core";
import { CompactionSession } from "@context-engine/core/session";
import { LcmStore } from "../src/store/LcmStore.js";
import { describeLcmScopeIsolation } from "./scopeIsolationContract.js";
import { newMessage } from "./storeContract.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

let cleanup: (() => void) | undefined;

describeLcmScopeIsolation("LcmStore (SQLite): lcm sessions belong to someone", {
  open: () => {
    const made = tempDir();
    cleanup = made.cleanup;
    return new LcmStore(join(made.dir, "lcm.db"));
  },
  cleanup: () => cleanup?.(),
});

describe("LcmStore (SQLite): a store written before scopes", () => {
  it("records the sessions of a schema v3 file in the default scope when it is opened again", () => {
    const made = tempDir();
    try {
      const path = join(made.dir, "lcm.db");
      const old = new LcmStore(path);
      old.appendMessages("s", [newMessage({ role: "user", content: "hello" })], 1_000);
      old.db.exec("DROP TABLE lcm_sessions");
      old.db.pragma("user_version = 3");
      old.close();
      const store = new LcmStore(path);
      try {
        expect(store.sessions("default")).toEqual(["s"]);
        expect(store.sessions("alice")).toEqual([]);
        expect(() => store.recordSessionScope("s", "alice")).toThrow(/belongs to scope 'default', not 'alice'/);
        expect(() => store.db.exec("UPDATE lcm_sessions SET scope = 'alice'")).toThrow(/scope of a session is fixed/);
      } finally {
        store.close();
      }
    } finally {
      made.cleanup();
    }
  });
});

describe("the lcm engine's scopes", () => {
  it("gives the session /new starts the scope of the one it started from, so the conversation stays searchable as one", async () => {
    const made = tempDir();
    const engine = makeEngine(made.dir, { config: { new_session_retain_depth: -1 } });
    try {
      await engine.onSessionStart("chat", { scope: "alice" });
      await engine.compress(conversation(40));
      await engine.onSessionReset();
      expect(engine.sessionId).toBe("chat~1");
      expect(engine.store.sessionScope("chat~1")).toBe("alice");
      const found = parseResult(await engine.handleToolCall("lcm_grep", { pattern: "zeta3 invariant", sessions: "conversation" }, { sessionId: "chat~1", scope: "alice" }));
      expect(found.count).toBeGreaterThan(0);
      expect(found.matches.every((m: { session: string }) => m.session === "chat")).toBe(true);
    } finally {
      await engine.close();
      made.cleanup();
    }
  });

  it("answers a call naming a session lcm never stored (an adapter's own id) from its current session, as before scopes", async () => {
    const made = tempDir();
    const engine = makeEngine(made.dir);
    try {
      await engine.compress(conversation(40));
      const found = parseResult(await engine.handleToolCall("lcm_grep", { pattern: "zeta3 invariant" }, { sessionId: "ai-sdk-conversation-7" }));
      expect(found.count).toBeGreaterThan(0);
    } finally {
      await engine.close();
      made.cleanup();
    }
  });
});

describe("lcm through a CompactionSession with a scope", () => {
  it("answers the session's tool calls from its scope: the session is started in lcm with that scope on its first call", async () => {
    const made = tempDir();
    const engine = makeEngine(made.dir);
    const store = openSqliteStore(join(made.dir, "sessions.db"));
    try {
      const session = new CompactionSession({ engine, store, platform: "gateway", scope: "alice" });
      session.append(conversation(6));
      await session.maybeCompress({ force: true });
      const found = parseResult(await session.handleToolCall("lcm_grep", { pattern: "parser" }));
      expect(found.error).toBeUndefined();
      expect(JSON.stringify(found)).toContain("parser");
    } finally {
      store.close();
      made.cleanup();
    }
  });
});
