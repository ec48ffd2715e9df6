import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { validateConfigObject } from "../../src/config/load.js";

const MODEL = { model: "claude-sonnet-4", contextLength: 200_000, maxTokens: 32_000 };

/** An engine with a hand-moved clock, and the Anthropic usage of a request that read `read` tokens from cache. */
function clocked(timing: "threshold" | "cache_aware") {
  let now = Date.UTC(2026, 0, 1);
  const engine = new ContextCompressor({ compression: { timing }, model: MODEL, now: () => now });
  const respond = (prompt: number, read: number) => engine.updateFromResponse({ input_tokens: prompt - read, cache_read_input_tokens: read, cache_creation_input_tokens: 0, output_tokens: 200 });
  const wait = (ms: number) => {
    now += ms;
  };
  return { engine, respond, wait };
}

describe("compression.timing on the built-in compressor", () => {
  it("defaults to threshold: compaction at the trigger whatever the cache", () => {
    const { engine, respond, wait } = clocked("threshold");
    expect(engine.compression.timing).toBe("threshold");
    respond(engine.thresholdTokens, engine.thresholdTokens - 2_000);
    wait(10_000);
    expect(engine.shouldCompressInfo()).toMatchObject({ should: true, reason: "ok" });
    expect(engine.shouldCompressInfo().timing).toBeUndefined();
  });

  it("cache_aware defers past the trigger right after a cache read, while the session's idle gaps say the cache often expires", () => {
    const { engine, respond, wait } = clocked("cache_aware");
    respond(engine.thresholdTokens - 5_000, 60_000);
    wait(400_000);
    respond(engine.thresholdTokens + 1_000, 0);
    wait(10_000);
    expect(engine.shouldCompressInfo()).toMatchObject({ should: false, reason: "cache_warm", timing: { reason: "cache_warm_defer" } });
  });

  it("cache_aware compacts below the trigger once the agent was idle longer than the cache TTL", () => {
    const { engine, respond, wait } = clocked("cache_aware");
    const tokens = Math.round(engine.thresholdTokens * 0.8);
    respond(tokens, tokens - 1_000);
    wait(10_000);
    expect(engine.shouldCompress()).toBe(false);
    wait(6 * 60_000);
    expect(engine.shouldCompressInfo()).toMatchObject({ should: true, reason: "ok", timing: { reason: "cache_expired" } });
  });

  it("cache_aware never defers when the next request would pass the window less the output reserve", () => {
    const { engine, respond, wait } = clocked("cache_aware");
    respond(150_000, 100_000);
    wait(1_000);
    respond(165_000, 150_000);
    wait(1_000);
    expect(engine.shouldCompressInfo()).toMatchObject({ should: true, timing: { reason: "hard_limit" } });
  });

  it("the host hands prompt_caching.cache_ttl to cache_aware timing: a 1h TTL stays warm after 10 idle minutes", async () => {
    const config = validateConfigObject({ compression: { timing: "cache_aware" }, prompt_caching: { cache_ttl: "1h" } });
    const host = await createContextHost({ config, scratch: true });
    const engine = host.engine as ContextCompressor;
    expect(engine.cacheTiming?.ttl).toBe("1h");
    let now = Date.UTC(2026, 0, 1);
    engine.cacheTiming!.clock = () => now;
    const tokens = Math.round(engine.thresholdTokens * 0.8);
    engine.updateFromResponse({ input_tokens: 1_000, cache_read_input_tokens: tokens - 1_000, output_tokens: 10 });
    now += 10 * 60_000;
    expect(engine.shouldCompressInfo()).toMatchObject({ should: false, reason: "below_threshold" });
    now += 60 * 60_000;
    expect(engine.shouldCompressInfo()).toMatchObject({ should: true, timing: { reason: "cache_expired" } });
    expect(() => validateConfigObject({ compression: { timing: "lazy" } })).toThrow(/compression\.timing.*"threshold" or "cache_aware"/s);
  });
});
