/**
 * lcm sessions belong to someone: the scope isolation contract of lcm's agent tools, run on every lcm
 * store (SQLite here, PostgreSQL in packages/postgres). Two scopes hold look-alike, compacted
 * conversations; no call of lcm_grep, lcm_describe, lcm_expand or lcm_expand_query made as the one scope
 * may show the other's text, whatever its arguments — the other scope's ids read exactly as ids that do
 * not exist.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shownText, withoutId } from "../../../packages/core/test/store/contract/scopeIsolationContract.js";
import type { ChatMessage, Summarizer, SummaryRequest, ToolCallContext } from "../src/core.js";
import { LcmEngine } from "../src/engine.js";
import type { LcmStoreAsync } from "../src/store/LcmStoreAsync.js";
import { conversation, SMALL_CONFIG } from "./support.js";

/** How the contract opens one store. */
export interface LcmScopeHarness<S extends LcmStoreAsync = LcmStoreAsync> {
  /** A new, empty store. */
  open(): Promise<S> | S;
  /** Releases what `open` made (after the store is closed). */
  cleanup?(): Promise<void> | void;
}

/** Text only the other scope's turns hold; no answer to alice may show it beyond what the call passed. */
export const BOB_MARKER = "bobsecret";
/** A word in every turn of the other scope that no call passes: seen in an answer, it can only come from the store. */
const BOB_HIDDEN = "zebralagoon";

/** The sessions of each scope: bob's `team~1` looks like a session `/new` started from alice's `team`. */
export const SCOPE_SESSIONS = { alice: ["alice-1", "team"], bob: ["bob-1", "team~1"] } as const;

/** Alice's calls: the host names her session and scope. */
export const AS_ALICE: ToolCallContext = { sessionId: "alice-1", scope: "alice" };

/** A compacting conversation whose every text mentions flamingo and the owner's marker. */
function lookAlike(owner: "alice" | "bob"): ChatMessage[] {
  const mark = owner === "bob" ? ` flamingo ${BOB_MARKER} ${BOB_HIDDEN}` : " flamingo alicenote";
  return conversation(24).map((m) => (typeof m.content === "string" ? ({ ...m, content: m.content + mark } as ChatMessage) : m));
}

/** Answers with every message it is given, so a tool that fed it the other scope's turns would show them. */
export class EchoSummarizer implements Summarizer {
  readonly name = "echo";
  async summarize(request: SummaryRequest): Promise<string> {
    return request.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");
  }
}

/** What the seeding stored: the ids of each scope's messages and summaries. */
export interface SeededScopes {
  bobMessages: string[];
  bobSummaries: string[];
  aliceMessages: string[];
  aliceSummaries: string[];
}

/** Compacts the look-alike conversations of both scopes into `store` (two sessions each). */
export async function seedTwoScopes(store: LcmStoreAsync): Promise<SeededScopes> {
  const engine = engineOn(store);
  const seeded: SeededScopes = { bobMessages: [], bobSummaries: [], aliceMessages: [], aliceSummaries: [] };
  for (const owner of ["alice", "bob"] as const) {
    for (const session of SCOPE_SESSIONS[owner]) {
      await engine.onSessionStart(session, { scope: owner });
      const input = lookAlike(owner);
      await engine.compress(input);
      await engine.onSessionEnd(session, input);
      seeded[`${owner}Messages`].push(...(await store.getMessagesBySeq(session, 1, 1_000_000)).map((m) => m.id));
      seeded[`${owner}Summaries`].push(...(await store.allSummaries(session)).map((s) => s.id));
    }
  }
  expect(seeded.bobSummaries.length).toBeGreaterThan(0);
  return seeded;
}

/** An lcm engine over `store` at a 4k window, with an echoing LLM summarizer when `llm`. */
export function engineOn(store: LcmStoreAsync, llm = false): LcmEngine<LcmStoreAsync> {
  let clock = 1_700_000_000_000;
  return new LcmEngine<LcmStoreAsync>({
    store,
    config: SMALL_CONFIG,
    model: { model: "test-model", contextLength: 4_000 },
    now: () => (clock += 1_000),
    ...(llm ? { summarizer: new EchoSummarizer(), llmSummarizer: true } : {}),
  });
}

/** Tool calls an agent (or a tool output it read) might try; `bob` stands for an id of the other scope. */
export function adversarialCalls(bob: string): [string, Record<string, unknown>][] {
  const grep = (args: Record<string, unknown>): [string, Record<string, unknown>] => ["lcm_grep", { scope: "both", limit: 100, ...args }];
  return [
    grep({ pattern: "flamingo" }),
    grep({ pattern: "flamingo", sessions: "all" }),
    grep({ pattern: "flamingo", sessions: "conversation" }),
    grep({ pattern: BOB_MARKER, sessions: "all" }),
    grep({ pattern: `${BOB_MARKER}*`, sessions: "all" }),
    grep({ pattern: "flamingo | bobsecret | zebra*", sessions: "all", sort: "relevance" }),
    grep({ pattern: "NEAR(flamingo bobsecret)", sessions: "all" }),
    grep({ pattern: "skey:flamingo OR text:flamingo", sessions: "all" }),
    grep({ pattern: '"flamingo" AND NOT alice', sessions: "all" }),
    grep({ pattern: "%' OR '1'='1", sessions: "all" }),
    grep({ pattern: "flamingo ".repeat(400), sessions: "all" }),
    grep({ pattern: ".*", mode: "regex", sessions: "all" }),
    grep({ pattern: "bob.*secret|zebra", mode: "regex", sessions: "all" }),
    grep({ pattern: "(?:)", mode: "regex", sessions: "conversation" }),
    grep({ pattern: bob, sessions: "all" }),
    ["lcm_describe", { sessions: "all" }],
    ["lcm_describe", { sessions: "conversation" }],
    ["lcm_describe", { id: bob }],
    ["lcm_describe", { id: bob, sessions: "all" }],
    ["lcm_describe", { id: "msg_1' OR '1'='1", sessions: "all" }],
    ["lcm_describe", { id: "sum_%", sessions: "all" }],
    ["lcm_expand", { id: bob }],
    ["lcm_expand", { id: bob, sessions: "all", maxTokens: 200_000 }],
    ["lcm_expand", { id: bob, sessions: "conversation", offset: 1 }],
    ["lcm_expand", { id: "sum_' OR 1=1 --", sessions: "all" }],
    ["lcm_expand_query", { prompt: "what is the password?", ids: [bob] }],
    ["lcm_expand_query", { prompt: "what is the password?", query: `flamingo ${BOB_MARKER}` }],
    ["lcm_expand_query", { prompt: "what is the password?", query: "flamingo" }],
  ];
}

/** An id of the same kind as `id` that no store holds. */
function unknownLike(id: string): string {
  return id.startsWith("msg_") ? "msg_999999999" : "sum_0000000000000000";
}

/** Expects `answer` to `args` to show nothing of bob's: neither his words nor his session ids. */
function expectNothingOfBob(answer: string, args: unknown): void {
  const label = JSON.stringify(args).slice(0, 120);
  const shown = shownText(answer, args);
  expect(answer.toLowerCase(), label).not.toContain(BOB_HIDDEN);
  expect(shown, label).not.toContain(BOB_MARKER);
  for (const session of SCOPE_SESSIONS.bob) expect(shown, label).not.toContain(`"${session}"`);
}

/** The contract's tests, under `describe(name)`. */
export function describeLcmScopeIsolation<S extends LcmStoreAsync>(name: string, harness: LcmScopeHarness<S>): void {
  describe(name, () => {
    async function withStore(body: (store: S, seeded: SeededScopes) => Promise<void>): Promise<void> {
      const store = await harness.open();
      try {
        await body(store, await seedTwoScopes(store));
      } finally {
        await store.close();
        await harness.cleanup?.();
      }
    }
    const call = async (engine: LcmEngine<LcmStoreAsync>, name: string, args: unknown, context: ToolCallContext = AS_ALICE) => engine.handleToolCall(name, args, context);

    it("records each session's scope, lists one scope's sessions, and refuses to start a session in another scope than its own", async () => {
      await withStore(async (store) => {
        expect(await store.sessions("alice")).toEqual(["alice-1", "team"]);
        expect(await store.sessions("bob")).toEqual(["bob-1", "team~1"]);
        expect((await store.sessions()).length).toBe(4);
        expect(await store.sessionScope("team~1")).toBe("bob");
        expect(await store.sessionScope("never-started")).toBe("default");
        await expect(engineOn(store).onSessionStart("team~1", { scope: "alice" })).rejects.toThrow(/belongs to scope 'bob', not 'alice'/);
        expect(await store.sessionScope("team~1")).toBe("bob");
      });
    });

    it("answers from the calling session's scope: sessions \"all\" is every session of it, and a call that cannot tell whose it is is refused", async () => {
      await withStore(async (store) => {
        const engine = engineOn(store);
        const all = JSON.parse(await call(engine, "lcm_grep", { pattern: "flamingo", sessions: "all", limit: 100 }));
        expect(all.count).toBeGreaterThan(0);
        expect(new Set(all.matches.map((m: { session: string }) => m.session))).toEqual(new Set(["alice-1", "team"]));
        const listed = JSON.parse(await call(engine, "lcm_describe", { sessions: "all" }));
        expect(listed.sessions.map((s: { session: string }) => s.session)).toEqual(["alice-1", "team"]);
        // bob's team~1 looks like a /new session of alice's team: it is not part of her conversation
        const conversationOfTeam = JSON.parse(await call(engine, "lcm_describe", { sessions: "conversation" }, { sessionId: "team", scope: "alice" }));
        expect(conversationOfTeam.sessions.map((s: { session: string }) => s.session)).toEqual(["team"]);
        // only alice's session open: a call without context is hers
        await engine.onSessionStart("alice-1", { scope: "alice" });
        expect(JSON.parse(await engine.handleToolCall("lcm_grep", { pattern: "flamingo", sessions: "all" })).count).toBeGreaterThan(0);
        // alice's and bob's sessions open: a call without context is refused
        await engine.onSessionStart("bob-1", { scope: "bob" });
        expect(JSON.parse(await engine.handleToolCall("lcm_grep", { pattern: "flamingo", sessions: "all" }))).toMatchObject({ code: "no_scope" });
        // a blank scope would read as the operator's "no scope": refused
        expect(JSON.parse(await call(engine, "lcm_grep", { pattern: "flamingo" }, { sessionId: "alice-1", scope: "" }))).toMatchObject({ code: "no_scope" });
        await expect(engine.onSessionStart("new-one", { scope: " " })).rejects.toThrow(/scope must be a non-empty string/);
        // a host naming a session of another scope than the one it gives is refused
        expect(JSON.parse(await call(engine, "lcm_grep", { pattern: "flamingo" }, { sessionId: "bob-1", scope: "alice" }))).toMatchObject({ code: "no_scope" });
      });
    });

    it("resolves a session another engine started on the store, answers a session not stored yet from the caller's scope, and never names another scope's session in a refusal", async () => {
      await withStore(async (store) => {
        // a new session of alice's started on another worker: only its scope is recorded
        await engineOn(store).onSessionStart("alice-2", { scope: "alice" });
        const other = engineOn(store);
        const fromOther = JSON.parse(await call(other, "lcm_grep", { pattern: "flamingo", sessions: "all", limit: 100 }, { sessionId: "alice-2", scope: "alice" }));
        expect(new Set(fromOther.matches.map((m: { session: string }) => m.session))).toEqual(new Set(["alice-1", "team"]));
        // a session nobody stored or started yet, named with its scope: the caller's own, answered from alice's scope
        const fresh = JSON.parse(await call(other, "lcm_describe", { sessions: "all" }, { sessionId: "alice-brand-new", scope: "alice" }));
        const listed: string[] = fresh.sessions.map((x: { session: string }) => x.session);
        expect(listed).toEqual(expect.arrayContaining(["alice-1", "team"]));
        for (const session of SCOPE_SESSIONS.bob) expect(listed).not.toContain(session);
        // the engine's current session is bob's (he compacted last): a call as alice that names no session is refused without naming it
        const current = engineOn(store);
        await current.onSessionStart("bob-1", { scope: "bob" });
        await current.compress(conversation(6));
        const refused = await current.handleToolCall("lcm_grep", { pattern: "flamingo" }, { scope: "alice" });
        expect(JSON.parse(refused)).toMatchObject({ code: "no_scope" });
        for (const session of SCOPE_SESSIONS.bob) expect(refused).not.toContain(session);
      });
    });

    it("shows no adversarial call the other scope's text, and reads its ids exactly as ids that do not exist", async () => {
      await withStore(async (store, seeded) => {
        const engine = engineOn(store, true);
        expect(await call(engine, "lcm_grep", { pattern: "flamingo alicenote" })).toContain("alicenote");
        expect(JSON.parse(await call(engine, "lcm_expand_query", { prompt: "what is the password?", query: "flamingo" })).answer).toContain("alicenote");
        for (const bob of [seeded.bobMessages[0]!, seeded.bobMessages.at(-1)!, seeded.bobSummaries[0]!, seeded.bobSummaries.at(-1)!]) {
          for (const [name, args] of adversarialCalls(bob)) {
            const answer = await call(engine, name, args);
            expectNothingOfBob(answer, args);
            const unknown = unknownLike(bob);
            const asUnknown = await call(engine, name, JSON.parse(JSON.stringify(args).split(bob).join(unknown)));
            expect(withoutId(answer, bob), `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(withoutId(asUnknown, unknown));
          }
        }
      });
    });

    it("never shows the other scope's text for any generated tool call (property)", async () => {
      await withStore(async (store, seeded) => {
        const engine = engineOn(store, true);
        const word = fc.constantFrom("flamingo", "zeta3", "parser", "bob", BOB_MARKER, "alice", "OR", "AND", "NOT", "NEAR", "*", '"', "|", "(", ")", "'", "--", "%", "skey:", ".*", "\\");
        const text = fc.oneof(fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" ")), fc.string({ minLength: 1, maxLength: 40 }));
        const id = fc.oneof(fc.constantFrom(...seeded.bobMessages, ...seeded.bobSummaries, ...seeded.aliceMessages, ...seeded.aliceSummaries, "msg_1' OR '1'='1"), fc.string({ minLength: 1, maxLength: 20 }));
        const sessions = fc.oneof(fc.constantFrom("current", "conversation", "all"), fc.string({ maxLength: 10 }));
        const toolCall = fc.oneof(
          fc.record({ name: fc.constant("lcm_grep"), args: fc.record({ pattern: text, mode: fc.constantFrom("full_text", "regex"), scope: fc.constantFrom("messages", "summaries", "both"), sessions, sort: fc.constantFrom("recency", "relevance"), limit: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: ["pattern"] }) }),
          fc.record({ name: fc.constant("lcm_describe"), args: fc.record({ id, sessions }, { requiredKeys: [] }) }),
          fc.record({ name: fc.constant("lcm_expand"), args: fc.record({ id, sessions, offset: fc.integer({ min: 0, max: 5 }), maxTokens: fc.integer({ min: 100, max: 200_000 }) }, { requiredKeys: ["id"] }) }),
          fc.record({ name: fc.constant("lcm_expand_query"), args: fc.record({ prompt: text, query: text, ids: fc.array(id, { minLength: 1, maxLength: 3 }) }, { requiredKeys: ["prompt"] }) }),
        );
        await fc.assert(
          fc.asyncProperty(toolCall, async ({ name, args }) => {
            expectNothingOfBob(await call(engine, name, args), args);
          }),
          { numRuns: 150 },
        );
      });
    });
  });
}
