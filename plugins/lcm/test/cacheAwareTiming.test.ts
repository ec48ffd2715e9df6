import { describe, expect, it } from "vitest";
import { createLcmEngine } from "../src/index.js";

const MODEL = { model: "claude-sonnet-4", contextLength: 200_000, maxTokens: 32_000 };

/** An lcm engine built by the plugin's factory from `config`, with a hand-moved cache clock. */
async function lcm(config: Record<string, unknown>) {
  const engine = await createLcmEngine({ config, rootDir: "/nonexistent", warn: () => {}, scratch: true });
  engine.updateModel(MODEL);
  let now = Date.UTC(2026, 0, 1);
  if (engine.cacheTiming) engine.cacheTiming.clock = () => now;
  const respond = (prompt: number) => engine.updateFromResponse({ input_tokens: 1_000, cache_read_input_tokens: prompt - 1_000, output_tokens: 50 });
  return { engine, respond, wait: (ms: number) => void (now += ms) };
}

describe("compression.timing on lcm", () => {
  it("keeps lcm's own trigger by default", async () => {
    const { engine, respond } = await lcm({});
    expect(engine.cacheTiming).toBeUndefined();
    respond(engine.thresholdTokens - 1);
    expect(engine.shouldCompress()).toBe(false);
    respond(engine.thresholdTokens);
    expect(engine.shouldCompress()).toBe(true);
    await engine.close();
  });

  it("with cache_aware compacts below its trigger once the agent was idle past the cache TTL, and not before", async () => {
    const { engine, respond, wait } = await lcm({ compression: { timing: "cache_aware" }, prompt_caching: { cache_ttl: "5m" } });
    expect(engine.cacheTiming?.ttl).toBe("5m");
    respond(Math.round(engine.thresholdTokens * 0.9));
    wait(60_000);
    expect(engine.shouldCompress()).toBe(false);
    wait(5 * 60_000);
    expect(engine.shouldCompress()).toBe(true);
    await engine.close();
  });

  it("with cache_aware never defers past the window less the output reserve", async () => {
    const { engine, respond, wait } = await lcm({ compression: { timing: "cache_aware" } });
    respond(150_000);
    wait(400_000);
    respond(166_000);
    wait(1_000);
    expect(engine.cacheTiming!.decide(engine.sessionId, engine.model, 166_000, { triggerTokens: engine.thresholdTokens, compactedTokensEstimate: engine.targetTokens }).reason).toBe("hard_limit");
    expect(engine.shouldCompress()).toBe(true);
    await engine.close();
  });
});
