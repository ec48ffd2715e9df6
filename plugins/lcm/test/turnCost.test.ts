/**
 * Constant per-turn cost: a host that re-sends its whole conversation every turn (freshly parsed copies)
 * gets only the new messages stored, without the held part being walked; a history that diverged from
 * the store is handled as by an engine that held nothing (the full alignment); and two workers taking
 * turns on one session keep every message once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { CHECKED_POSITIONS } from "../src/heldExtension.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const copy = (messages: ChatMessage[]): ChatMessage[] => JSON.parse(JSON.stringify(messages)) as ChatMessage[];
const BIG = 1_000_000;

/** The stored messages of `session`, in seq order. */
function storedOf(engine: ReturnType<typeof makeEngine>, session = "default"): ChatMessage[] {
  return engine.store.getMessagesBySeq(session, 1, Number.MAX_SAFE_INTEGER).map((m) => m.message);
}

/** `messages` behind a proxy that counts reads of the indexes below `watched`. */
function counted(messages: ChatMessage[], watched: number): { list: ChatMessage[]; reads: Set<number> } {
  const reads = new Set<number>();
  const list = new Proxy(messages, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key) && Number(key) < watched) reads.add(Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list, reads };
}

describe("a turn that only adds to what the host holds", () => {
  let dir: { dir: string; cleanup: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it("stores exactly the new messages of each of 12 turns of freshly parsed copies, keeping the conversation once and in order", async () => {
    const engine = makeEngine(dir.dir, { contextLength: BIG });
    try {
      let host = conversation(3);
      await engine.compress(copy(host));
      for (let turn = 3; turn < 15; turn++) {
        const added = conversation(1, { from: turn, system: false });
        host = [...host, ...added];
        const before = engine.store.lastSeq("default");
        const output = await engine.compress(copy(host));
        expect(output).toEqual(host);
        expect(engine.store.getMessagesBySeq("default", before + 1, Number.MAX_SAFE_INTEGER).map((m) => m.message)).toEqual(added);
      }
      expect(storedOf(engine)).toEqual(host.slice(1));
      // the same list again adds nothing
      expect(await engine.ingest(copy(host))).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it(`reads at most ${CHECKED_POSITIONS} of the held messages, however long the conversation`, async () => {
    const engine = makeEngine(dir.dir, { contextLength: BIG });
    try {
      const history = conversation(500);
      await engine.compress(copy(history));
      const next = [...history, ...conversation(1, { from: 500, system: false })];
      const { list, reads } = counted(copy(next), history.length);
      await engine.compress(list);
      // the system prompt, and the held conversation at its checked positions only
      expect(reads.size).toBeLessThanOrEqual(CHECKED_POSITIONS + 2);
      expect(storedOf(engine)).toEqual(next.slice(1));
    } finally {
      engine.close();
    }
  });

  it("handles a history that diverged from the store as an engine that held nothing does: a regenerated answer, an edit, a rewind, an insertion", async () => {
    // 40 messages after the system prompt: more than are checked, so the checks fall on its ends and a spread between
    const history = conversation(10);
    const last = history.length - 1;
    const diverged: Record<string, ChatMessage[]> = {
      "the last answer regenerated": [...history.slice(0, last), { role: "assistant", content: "A different answer." }, { role: "user", content: "next" }],
      "an early message edited": history.map((m, i) => (i === 6 ? { ...m, content: "an edited request" } as ChatMessage : m)),
      "the first message edited": [{ role: "system", content: "You are a careful coding agent." }, { role: "user", content: "edited first" }, ...history.slice(2)],
      "the history rewound": [...history.slice(0, 9), { role: "user", content: "take another way" }],
      "a message inserted": [...history.slice(0, 5), { role: "user", content: "an inserted aside" }, ...history.slice(5)],
    };
    for (const [name, incoming] of Object.entries(diverged)) {
      const stored: ChatMessage[][] = [];
      for (const holds of [true, false]) {
        const run = tempDir();
        try {
          const first = makeEngine(run.dir, { contextLength: BIG });
          await first.compress(copy(history));
          // an engine that held nothing: a fresh one on the same file
          const second = holds ? first : (first.close(), makeEngine(run.dir, { contextLength: BIG }));
          await second.compress(copy(incoming));
          stored.push(storedOf(second));
          second.close();
        } finally {
          run.cleanup();
        }
      }
      expect(stored[0], name).toEqual(stored[1]);
      expect(stored[0]!.length, name).toBeGreaterThan(history.length - 1);
    }
  });

  it("takes the turns another worker stored meanwhile as stored, reading no more of the held part: two engines on one store taking turns keep every message once", async () => {
    const a = makeEngine(dir.dir, { contextLength: BIG });
    const b = makeEngine(dir.dir, { contextLength: BIG });
    try {
      let host = conversation(20);
      for (let turn = 20; turn < 30; turn++) {
        // what this engine saw the host hold (two turns ago): the other engine stored the turn after it
        const ownHeld = host.length - 4;
        host = [...host, ...conversation(1, { from: turn, system: false })];
        const { list, reads } = counted(copy(host), ownHeld);
        await (turn % 2 === 0 ? a : b).compress(list);
        // from its second turn on: the system prompt and the checked positions of what it held
        if (turn >= 22) expect(reads.size, `turn ${turn}`).toBeLessThanOrEqual(CHECKED_POSITIONS + 2);
      }
      expect(storedOf(a)).toEqual(host.slice(1));
    } finally {
      a.close();
      b.close();
    }
  });
});
