/**
 * Sessions belong to someone: the scope isolation contract, run against every session store (SQLite
 * here, PostgreSQL in packages/postgres). Two scopes hold look-alike conversations; `session_search`
 * through the scoped view of one scope must never show the other's text, whatever the arguments — ids
 * of the other scope read exactly as ids that do not exist.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/messages/schema.js";
import { runSessionSearch, scopedSearchSource, type SessionSearchSource } from "../../../src/tools/sessionSearch.js";
import { SessionStoreError, type SessionStoreAsync } from "../../../src/store/types.js";
import { expectFailure } from "./sessionStoreContract.js";

/** How the contract opens one implementation. */
export interface ScopeIsolationHarness<S extends SessionStoreAsync = SessionStoreAsync> {
  /** A new, empty store. */
  open(): Promise<S> | S;
  /** Releases what `open` made (after the store is closed). */
  cleanup?(): Promise<void> | void;
}

/** Text only the other scope's turns hold; no answer to alice may contain it. */
export const BOB_MARKER = "bobsecret";

const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });

/** A word in every turn and title of the other scope that no call passes: seen in an answer, it can only come from the store. */
const BOB_HIDDEN = "zebralagoon";

/** Look-alike conversations: the same words, each scope's own marker. */
function conversationOf(owner: string, marker: string): ChatMessage[] {
  const hidden = owner === "bob" ? ` ${BOB_HIDDEN}` : "";
  return [
    user(`Deploy the flamingo service for ${owner}; the password is ${marker}-pw${hidden}`),
    assistant(`Deployed flamingo with key ${marker}-key.${hidden}`),
    user(`Now rotate the flamingo credentials (${marker})${hidden}`),
    assistant(`Rotated.${hidden}`),
  ];
}

/** Expects `answer` to `args` to show nothing of the other scope: neither its words nor its session ids (beyond those passed). */
function expectNothingOfBob(answer: string, args: unknown, bobIds: readonly string[]): void {
  const label = JSON.stringify(args).slice(0, 120);
  const shown = shownText(answer, args);
  expect(answer.toLowerCase(), label).not.toContain(BOB_HIDDEN);
  expect(shown, label).not.toContain(BOB_MARKER);
  for (const id of bobIds) expect(shown, label).not.toContain(id.toLowerCase());
}

/** Two scopes, two sessions each (one compacted, so archived turns count too). */
export async function seedTwoScopes(store: SessionStoreAsync): Promise<{ alice: string[]; bob: string[] }> {
  const ids: { alice: string[]; bob: string[] } = { alice: [], bob: [] };
  for (const [owner, marker] of [["alice", "alicenote"], ["bob", BOB_MARKER]] as const) {
    for (let i = 0; i < 2; i++) {
      const session = await store.createSession({ platform: "gateway", scope: owner, title: `${owner} flamingo ${i} ${marker}${owner === "bob" ? ` ${BOB_HIDDEN}` : ""}` });
      await store.appendMessages(session.id, conversationOf(owner, marker));
      if (i === 0) await store.archiveAndReplace(session.id, [user(`[summary] flamingo deployed for ${owner} ${marker}`), assistant(`Rotated.${owner === "bob" ? ` ${BOB_HIDDEN}` : ""}`)]);
      ids[owner].push(session.id);
    }
  }
  return ids;
}

/** `session_search` calls an agent (or a tool output it read) might try, with `bob` standing for an id of the other scope. */
function adversarialCalls(bob: string): unknown[] {
  return [
    {},
    { query: "flamingo" },
    { query: "flamingo", limit: 50, window: 20 },
    { query: BOB_MARKER },
    { query: `${BOB_MARKER}*` },
    { query: "flamingo OR bob OR password" },
    { query: "NEAR(flamingo password)" },
    { query: "text:flamingo" },
    { query: '"flamingo" AND NOT alice' },
    { query: ".*" },
    { query: "flamingo|bobsecret" },
    { query: "%' OR '1'='1" },
    { query: "flamingo ".repeat(400) },
    { query: "flamingo", session_id: bob },
    { session_id: bob, around_seq: 1, window: 20 },
    { session_id: bob, around_seq: 2 },
    { session_id: "' OR 1=1 --", around_seq: 1 },
    { session_id: "%", around_seq: 1 },
    { query: "flamingo", session_id: "' OR scope <> 'alice" },
  ];
}

/** The answer without what the call itself passed (a query or an id echoed back is not the other scope's text), lower case. */
export function shownText(answer: string, args: unknown): string {
  let text = answer;
  const given = Object.values((args ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === "string");
  for (const value of given.sort((a, b) => b.length - a.length)) {
    for (const form of [value, JSON.stringify(value).slice(1, -1), JSON.stringify(JSON.stringify(value)).slice(1, -1)]) if (form !== "") text = text.split(form).join("<given>");
  }
  return text.toLowerCase();
}

/** The answer with every occurrence of `id` replaced, so answers about two different ids compare. */
export function withoutId(answer: string, id: string): string {
  return answer.split(JSON.stringify(id).slice(1, -1)).join("<id>");
}

/** The contract's tests, under `describe(name)`. */
export function describeScopeIsolation<S extends SessionStoreAsync>(name: string, harness: ScopeIsolationHarness<S>): void {
  describe(name, () => {
    async function withStore(body: (store: S, ids: { alice: string[]; bob: string[] }) => Promise<void>): Promise<void> {
      const store = await harness.open();
      try {
        await body(store, await seedTwoScopes(store));
      } finally {
        await store.close();
        await harness.cleanup?.();
      }
    }
    const aliceView = (store: S): SessionSearchSource => scopedSearchSource(store as unknown as SessionSearchSource, "alice");

    it("keeps the scope a session was created with, gives a rotated child its parent's, and refuses a child in another scope", async () => {
      await withStore(async (store, ids) => {
        expect((await store.getSession(ids.alice[0]!))?.scope).toBe("alice");
        const plain = await store.createSession({ platform: "cli" });
        expect(plain.scope).toBe("default");
        const { session: child } = await store.rotateSession(ids.bob[1]!, [user("continued")]);
        expect(child.scope).toBe("bob");
        await expectFailure(() => store.createSession({ platform: "cli", scope: "alice", parentSessionId: ids.bob[1]! }), SessionStoreError, /scope 'alice' differs/);
        await expectFailure(() => store.createSession({ platform: "cli", scope: "" }), SessionStoreError, /scope/);
      });
    });

    it("lists and searches one scope when asked, every scope when not (the operator's view)", async () => {
      await withStore(async (store, ids) => {
        const listed = await store.listSessions({ scope: "alice", limit: 50 });
        expect(listed.map((s) => s.id).sort()).toEqual([...ids.alice].sort());
        expect((await store.listSessions({ limit: 50 })).length).toBe(4);
        const hits = await store.search("flamingo", { scope: "alice", limit: 100 });
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((hit) => ids.alice.includes(hit.sessionId))).toBe(true);
        expect((await store.search("flamingo", { limit: 100 })).some((hit) => ids.bob.includes(hit.sessionId))).toBe(true);
      });
    });

    it("answers session_search from the calling scope only: no adversarial call shows the other scope's text, and its ids read as unknown ones", async () => {
      await withStore(async (store, ids) => {
        const view = aliceView(store);
        const own = await runSessionSearch(view, { query: "flamingo" });
        expect(own).toContain("alicenote");
        for (const bob of ids.bob) {
          for (const args of adversarialCalls(bob)) {
            const answer = await runSessionSearch(view, args);
            expectNothingOfBob(answer, args, ids.bob);
            const unknown = "no-such-session";
            const asUnknown = await runSessionSearch(view, JSON.parse(JSON.stringify(args).split(bob).join(unknown)));
            expect(withoutId(answer, bob)).toBe(withoutId(asUnknown, unknown));
          }
        }
      });
    });

    it("never shows the other scope's text for any generated session_search call (property)", async () => {
      await withStore(async (store, ids) => {
        const view = aliceView(store);
        const word = fc.constantFrom("flamingo", "password", "bob", BOB_MARKER, "alice", "OR", "AND", "NOT", "NEAR", "*", '"', "|", "(", ")", "'", "--", "%", "text:", "deploy");
        const call = fc.record(
          {
            query: fc.oneof(fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" ")), fc.string({ minLength: 1, maxLength: 40 })),
            session_id: fc.oneof(fc.constantFrom(...ids.bob, ...ids.alice, "x' OR '1'='1"), fc.string({ minLength: 1, maxLength: 20 })),
            around_seq: fc.integer({ min: 1, max: 8 }),
            window: fc.integer({ min: 0, max: 20 }),
            limit: fc.integer({ min: 1, max: 50 }),
          },
          { requiredKeys: [] },
        );
        await fc.assert(
          fc.asyncProperty(call, async (args) => {
            const answer = await runSessionSearch(view, args);
            expectNothingOfBob(answer, args, ids.bob);
          }),
          { numRuns: 150 },
        );
      });
    });
  });
}
