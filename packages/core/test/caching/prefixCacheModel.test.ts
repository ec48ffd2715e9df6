import { describe, expect, it } from "vitest";
import { applyAnthropicCacheControl, stripCacheControl } from "../../src/caching/anthropicCacheControl.js";
import { breakpointTtl, simulatePrefixCache, totalsOf } from "../../src/caching/prefixCacheModel.js";
import type { CacheRequest } from "../../src/caching/prefixCacheModel.js";
import { messageFingerprint } from "../../src/caching/fingerprint.js";
import type { CacheTtl } from "../../src/providers/anthropicFacts.js";
import { lookupModelPrice, requestCostUsd } from "../../src/providers/prices.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import type { TokenCounter } from "../../src/tokens/types.js";

const SONNET = "claude-sonnet-4-5";
const MINUTE = 60_000;

/** A deterministic counter: one token per 4 characters of content and tool-call arguments. */
class CharCounter implements TokenCounter {
  count(text: string): number {
    return Math.ceil(text.length / 4);
  }
  countMessages(messages: ChatMessage[]): number {
    let chars = 0;
    for (const m of messages) {
      if (typeof m.content === "string") chars += m.content.length;
      else if (Array.isArray(m.content)) for (const p of m.content) chars += typeof p.text === "string" ? p.text.length : 0;
      for (const c of m.tool_calls ?? []) chars += c.function.name.length + c.function.arguments.length;
    }
    return Math.ceil(chars / 4) + 4;
  }
}

const words = (n: number, seed: string): string => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(" ");

/** A 20-turn agent session: each turn is a user message, a tool call, its result and a reply. */
function agentSession(turns = 20): ChatMessage[][] {
  const history: ChatMessage[] = [{ role: "system", content: words(2500, "sys") }];
  const requests: ChatMessage[][] = [];
  for (let t = 0; t < turns; t += 1) {
    history.push({ role: "user", content: `Task ${t}: ${words(60, `u${t}_`)}` });
    requests.push([...history]);
    history.push({ role: "assistant", content: null, tool_calls: [{ id: `c${t}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ cmd: `make step-${t}` }) } }] });
    history.push({ role: "tool", tool_call_id: `c${t}`, content: words(250, `out${t}_`) });
    requests.push([...history]);
    history.push({ role: "assistant", content: `Step ${t} done. ${words(40, `a${t}_`)}` });
  }
  return requests;
}

function asRequests(conversations: ChatMessage[][], options: { model?: string; ttl?: CacheTtl; gapMs?: number; account?: string } = {}): CacheRequest[] {
  return conversations.map((messages, i) => ({
    timestampMs: i * (options.gapMs ?? 20_000),
    model: options.model ?? SONNET,
    account: options.account,
    messages: applyAnthropicCacheControl(messages, { nativeAnthropic: true, ttl: options.ttl ?? "5m" }),
    outputTokens: 100,
  }));
}

/** A request with fixed per-message token counts. */
function fixed(timestampMs: number, messages: ChatMessage[], tokens: number[], model = SONNET, account?: string): CacheRequest {
  return { timestampMs, model, account, messages: applyAnthropicCacheControl(messages, { nativeAnthropic: true }), tokensPerMessage: tokens };
}

const base: ChatMessage[] = [
  { role: "system", content: "system prompt" },
  { role: "user", content: "first question" },
  { role: "assistant", content: "first answer" },
];
const followUp: ChatMessage[] = [...base, { role: "user", content: "second question" }];
const followUp2: ChatMessage[] = [...followUp, { role: "assistant", content: "second answer" }, { role: "user", content: "third question" }];

describe("simulatePrefixCache — a conversation sent request by request", () => {
  const report = simulatePrefixCache(asRequests(agentSession()), { tokenCounter: new CharCounter() });

  it("reads more than 80 % of each request's input from cache from request 3 on", () => {
    expect(report.requests).toHaveLength(40);
    for (const r of report.requests.slice(2)) {
      expect(r.cacheReadTokens / r.inputTokens, `request ${r.index}`).toBeGreaterThan(0.8);
    }
    expect(report.totals.cacheReadShare).toBeGreaterThan(0.85);
  });

  it("writes the whole prompt on the first request and reads nothing", () => {
    const first = report.requests[0];
    expect(first?.cacheReadTokens).toBe(0);
    expect(first?.cacheWriteTokens).toBe(first?.inputTokens);
  });

  it("splits every request's input exactly into reads, writes and uncached tokens", () => {
    for (const r of report.requests) expect(r.cacheReadTokens + r.cacheWriteTokens + r.uncachedTokens).toBe(r.inputTokens);
  });

  it("comes within 5 % of the ideal cache (every repeated prefix token read)", () => {
    expect(report.totals.idealCacheReadTokens).toBeGreaterThan(0);
    expect(report.totals.cacheReadTokens / report.totals.idealCacheReadTokens).toBeGreaterThan(0.95);
    for (const r of report.requests) expect(r.cacheReadTokens).toBeLessThanOrEqual(r.idealCacheReadTokens);
  });

  it("costs at most a quarter of the uncached price", () => {
    expect(report.totals.costUsd).toBeGreaterThan(0);
    expect(report.totals.costUsd).toBeLessThan(report.totals.uncachedCostUsd * 0.25);
    expect(report.totals.idealCostUsd).toBeLessThanOrEqual(report.totals.costUsd);
    expect(report.totals.unpricedModels).toEqual([]);
  });

  it("prices each request from its reads, writes, uncached input and output", () => {
    const r = report.requests[5];
    const price = lookupModelPrice(SONNET);
    if (!r || !price) throw new Error("fixture");
    expect(r.costUsd).toBeCloseTo(requestCostUsd({ uncachedInputTokens: r.uncachedTokens, cacheReadTokens: r.cacheReadTokens, cacheWriteTokens: r.cacheWriteTokensByTtl, outputTokens: 100 }, price), 12);
    expect(r.uncachedCostUsd).toBeCloseTo(((r.inputTokens * price.input) + 100 * price.output) / 1e6, 12);
  });

  it("reads nothing from cache when the requests carry no breakpoints", () => {
    const unmarked = asRequests(agentSession(3)).map((r) => ({ ...r, messages: stripCacheControl(r.messages) }));
    const result = simulatePrefixCache(unmarked, { tokenCounter: new CharCounter() });
    expect(result.totals.cacheReadTokens).toBe(0);
    expect(result.totals.cacheWriteTokens).toBe(0);
    expect(result.totals.idealCacheReadTokens).toBeGreaterThan(0);
  });
});

describe("simulatePrefixCache — TTL", () => {
  const tokens = [3000, 200, 300];
  const tokens2 = [...tokens, 150];
  const tokens3 = [...tokens2, 250, 100];

  it("hits within 5 minutes and refreshes the entry on each hit", () => {
    const report = simulatePrefixCache([fixed(0, base, tokens), fixed(4 * MINUTE, followUp, tokens2), fixed(8 * MINUTE, followUp2, tokens3)]);
    expect(report.requests[1]?.cacheReadTokens).toBe(3500);
    expect(report.requests[2]?.cacheReadTokens).toBe(3650);
  });

  it("misses and writes again after a 6-minute gap with the 5m TTL", () => {
    const report = simulatePrefixCache([fixed(0, base, tokens), fixed(6 * MINUTE, followUp, tokens2)]);
    const second = report.requests[1];
    expect(second?.cacheReadTokens).toBe(0);
    expect(second?.cacheWriteTokens).toBe(3650);
    expect(second?.cacheWriteTokensByTtl).toEqual({ "5m": 3650, "1h": 0 });
    expect(second?.fullMissReason).toBeUndefined();
  });

  it("still hits after a 6-minute gap with the 1h TTL, and bills the writes at the 1h price", () => {
    const oneHour = (t: number, messages: ChatMessage[], tk: number[]): CacheRequest => ({ timestampMs: t, model: SONNET, messages: applyAnthropicCacheControl(messages, { nativeAnthropic: true, ttl: "1h" }), tokensPerMessage: tk });
    const report = simulatePrefixCache([oneHour(0, base, tokens), oneHour(6 * MINUTE, followUp, tokens2), oneHour(70 * MINUTE, followUp2, tokens3)]);
    expect(report.requests[0]?.cacheWriteTokensByTtl).toEqual({ "5m": 0, "1h": 3500 });
    expect(report.requests[1]?.cacheReadTokens).toBe(3500);
    expect(report.requests[2]?.cacheReadTokens).toBe(0);
  });
});

describe("simulatePrefixCache — model and credential switches", () => {
  const tokens = [3000, 200, 300];
  const tokens2 = [...tokens, 150];
  const tokens3 = [...tokens2, 250, 100];

  it("makes a model switch a full miss and says so", () => {
    const report = simulatePrefixCache([fixed(0, base, tokens), fixed(MINUTE, followUp, tokens2, "claude-opus-4-1"), fixed(2 * MINUTE, followUp2, tokens3, "claude-opus-4-1")]);
    const switched = report.requests[1];
    expect(switched).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 3650, cacheKeyChange: "model_switch", fullMissReason: "model_switch", idealCacheReadTokens: 0 });
    expect(report.requests[2]?.cacheReadTokens).toBe(3650);
    expect(report.requests[2]?.fullMissReason).toBeUndefined();
    expect(report.totals.fullMisses).toBe(1);
  });

  it("makes a credential switch a full miss and says so", () => {
    const report = simulatePrefixCache([fixed(0, base, tokens, SONNET, "key-a"), fixed(MINUTE, followUp, tokens2, SONNET, "key-b")]);
    expect(report.requests[1]).toMatchObject({ cacheReadTokens: 0, fullMissReason: "credential_switch" });
  });

  it("finds the old model's entries again when switching back within the TTL", () => {
    const report = simulatePrefixCache([fixed(0, base, tokens), fixed(MINUTE, base, tokens, "gpt-4o"), fixed(2 * MINUTE, followUp, tokens2)]);
    expect(report.requests[2]).toMatchObject({ cacheReadTokens: 3500, cacheKeyChange: "model_switch" });
    expect(report.requests[2]?.fullMissReason).toBeUndefined();
  });
});

describe("simulatePrefixCache — minimum cacheable length", () => {
  it("caches nothing below the model's minimum and raises no error", () => {
    const report = simulatePrefixCache([fixed(0, base, [300, 200, 300]), fixed(MINUTE, followUp, [300, 200, 300, 100])]);
    for (const r of report.requests) expect(r).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(report.requests[1]?.uncachedTokens).toBe(900);
  });

  it("skips a short system-prompt breakpoint but caches a later one that reaches the minimum", () => {
    const report = simulatePrefixCache([fixed(0, base, [500, 400, 300]), fixed(MINUTE, followUp, [500, 400, 300, 100])]);
    // breakpoints at 500 (too short) and 900 (too short) cache nothing; 1,200 does
    expect(report.requests[0]).toMatchObject({ cacheWriteTokens: 1200, uncachedTokens: 0 });
    expect(report.requests[1]).toMatchObject({ cacheReadTokens: 1200, cacheWriteTokens: 100 });
  });

  it("uses the larger minimum of Haiku 3.5 and user overrides", () => {
    const haiku = simulatePrefixCache([fixed(0, base, [1500, 100, 100], "claude-3-5-haiku-20241022")]);
    expect(haiku.requests[0]?.cacheWriteTokens).toBe(0);
    const overridden = simulatePrefixCache([fixed(0, base, [1500, 100, 100], "claude-3-5-haiku-20241022")], { minimumCacheableTokens: { haiku: 1000 } });
    expect(overridden.requests[0]?.cacheWriteTokens).toBe(1700);
  });
});

describe("simulatePrefixCache — compaction", () => {
  it("keeps the system prompt's cache after the middle of the conversation is replaced by a summary", () => {
    const long: ChatMessage[] = [...followUp2, { role: "assistant", content: "third answer" }, { role: "user", content: "fourth question" }];
    const compacted: ChatMessage[] = [base[0] as ChatMessage, { role: "user", content: "[CONTEXT COMPACTION] summary of turns 1-3" }, { role: "user", content: "fourth question" }];
    const report = simulatePrefixCache([fixed(0, long, [3000, 200, 300, 150, 250, 100, 200, 100]), fixed(MINUTE, compacted, [3000, 400, 100])]);
    expect(report.requests[1]).toMatchObject({ cacheReadTokens: 3000, cacheWriteTokens: 500, cachedPrefixMessages: 1 });
  });
});

describe("simulatePrefixCache — input checks and helpers", () => {
  it("names the request whose token list does not match its messages", () => {
    expect(() => simulatePrefixCache([{ timestampMs: 0, model: SONNET, messages: base, tokensPerMessage: [1, 2] }])).toThrow(/requests\[0\]\.tokensPerMessage has 2 entries for 3 messages/);
  });

  it("rejects timestamps that go back in time and requests without any way to count tokens", () => {
    expect(() => simulatePrefixCache([fixed(10, base, [1, 1, 1]), fixed(5, base, [1, 1, 1])])).toThrow(/requests\[1\]\.timestampMs goes back in time/);
    expect(() => simulatePrefixCache([{ timestampMs: 0, model: SONNET, messages: base }])).toThrow(/requests\[0\]: give tokensPerMessage or options.tokenCounter/);
  });

  it("reports models without a price and leaves them out of the cost", () => {
    const report = simulatePrefixCache([fixed(0, base, [3000, 200, 300], "llama-3.1-70b")]);
    expect(report.requests[0]?.costUsd).toBeNull();
    expect(report.totals.unpricedModels).toEqual(["llama-3.1-70b"]);
    expect(report.totals.costUsd).toBe(0);
  });

  it("sums any slice of a report", () => {
    const report = simulatePrefixCache([fixed(0, base, [3000, 200, 300]), fixed(MINUTE, followUp, [3000, 200, 300, 150])]);
    expect(totalsOf(report.requests.slice(1))).toMatchObject({ requests: 1, inputTokens: 3650, cacheReadTokens: 3500 });
  });

  it("treats markers and string-vs-text-part content as the same cached content", () => {
    const plain: ChatMessage = { role: "user", content: "hello" };
    const wrapped: ChatMessage = { role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] };
    expect(messageFingerprint(wrapped)).toBe(messageFingerprint(plain));
    expect(messageFingerprint({ role: "user", content: "hello!" })).not.toBe(messageFingerprint(plain));
  });

  it("reads a marker's TTL, 1h winning", () => {
    expect(breakpointTtl({ role: "user", content: "x" })).toBeUndefined();
    expect(breakpointTtl({ role: "tool", tool_call_id: "a", content: "x", cache_control: { type: "ephemeral" } })).toBe("5m");
    expect(breakpointTtl({ role: "user", content: [{ type: "text", text: "a", cache_control: { type: "ephemeral", ttl: "1h" } }] })).toBe("1h");
  });
});
