import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSessionAsync } from "../../src/session/CompactionSessionAsync.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import type { SessionStoreAsync } from "../../src/store/types.js";

/** Keeps the last message and folds the rest into one summary quoting them. */
class FoldAllButLast extends ContextEngine {
  readonly name = "fold-all-but-last";
  shouldCompress(): boolean {
    return true;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return [{ role: "user", content: `[CONTEXT COMPACTION] ${messages.slice(0, -1).map((m) => String(m.content)).join(" | ")}` }, messages.at(-1)!];
  }
}

/** `store` answering every call with a promise, as a network database's store does. */
function promising(store: SessionStoreAsync): SessionStoreAsync {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? async (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args) : value;
    },
  });
}

describe("CompactionSessionAsync", () => {
  it("appends, compacts, undoes and logs an app-server boundary through a store that answers with promises", async () => {
    const sqlite = openSqliteStore(":memory:");
    const store = promising(sqlite);
    const session = await CompactionSessionAsync.open({ engine: new FoldAllButLast(), store, platform: "gateway", title: "async" });
    await session.append([{ role: "user", content: "one" }, { role: "assistant", content: "two" }, { role: "user", content: "three" }]);
    const result = await session.maybeCompress({ force: true });
    expect(result).toMatchObject({ outcome: "compressed", inPlace: true, compressionCount: 1, messagesBefore: 3, messagesAfter: 2 });
    expect(await session.messages()).toEqual([{ role: "user", content: "[CONTEXT COMPACTION] one | two" }, { role: "user", content: "three" }]);
    expect(await session.undoLastCompaction()).toMatchObject({ restored: 3, archived: 2 });
    expect((await session.messages()).map((m) => m.content)).toEqual(["one", "two", "three"]);
    expect(await session.recordAppServerCompaction()).toMatchObject({ outcome: "compressed", compressionCount: 1, messagesBefore: 3, messagesAfter: 3 });
    expect((await session.session()).title).toBe("async");
    sqlite.close();
  });

  it("joins the session another worker created between its lookup and its create, instead of failing", async () => {
    const sqlite = openSqliteStore(":memory:");
    let lookups = 0;
    const racing: SessionStoreAsync = new Proxy(sqlite, {
      get(target, key) {
        const value = Reflect.get(target, key) as (...args: unknown[]) => unknown;
        if (key !== "getSession") return typeof value === "function" ? value.bind(target) : value;
        return (id: string) => {
          // the first lookup misses; another worker creates the session right after it
          if (lookups++ > 0) return target.getSession(id);
          target.createSession({ id, platform: "gateway" });
          return undefined;
        };
      },
    });
    const session = await CompactionSessionAsync.open({ engine: new FoldAllButLast(), store: racing, sessionId: "shared", platform: "gateway" });
    expect(session.sessionId).toBe("shared");
    await expect(CompactionSessionAsync.open({ engine: new FoldAllButLast(), store: racing, platform: "" })).rejects.toThrow(/platform/);
    sqlite.close();
  });

  it("leaves a session to the worker holding its compaction lease, and releases its own lease once it has written", async () => {
    const sqlite = openSqliteStore(":memory:");
    const engine = new FoldAllButLast();
    let compressCalls = 0;
    const compress = engine.compress.bind(engine);
    engine.compress = async (messages) => (compressCalls++, compress(messages));
    const events: string[] = [];
    let heldElsewhere = true;
    const extra: Partial<SessionStoreAsync> = {
      leaseCompaction: async (id: string) => {
        events.push(`lease ${id}`);
        if (heldElsewhere) return undefined;
        return () => void events.push(`release ${id}`);
      },
      archiveAndReplace: async (...args: Parameters<SessionStoreAsync["archiveAndReplace"]>) => (events.push("write"), sqlite.archiveAndReplace(...args)),
    };
    const base = promising(sqlite);
    const leasing = new Proxy(base, { get: (target, key) => (key in extra ? extra[key as keyof SessionStoreAsync] : Reflect.get(target, key)) });
    const session = await CompactionSessionAsync.open({ engine, store: leasing, sessionId: "s", platform: "gateway" });
    await session.append([{ role: "user", content: "one" }, { role: "user", content: "two" }]);

    const left = await session.maybeCompress({ force: true });
    expect(left).toMatchObject({ outcome: "aborted", reason: "another worker is compacting this session; nothing was written (session 's')" });
    expect(compressCalls).toBe(0);
    expect((await session.messages()).map((m) => m.content)).toEqual(["one", "two"]);

    heldElsewhere = false;
    expect((await session.maybeCompress({ force: true })).outcome).toBe("compressed");
    expect(events).toEqual(["lease s", "lease s", "write", "release s"]);
    sqlite.close();
  });
});
