import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { prepareEngineCompression } from "../../src/gateway/enginePreparation.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { RecordingEngine } from "../../../../test/support/recordingEngine.js";

/** `count` alternating user/assistant messages of `chars` characters each (about chars/4 tokens). */
function history(count: number, chars: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i} ${"x".repeat(chars)}` }));
}

/** Window 10,000: gateway hygiene at 8,500, so with prepare_at 0.8 the summary is prepared from 6,800 on. */
const engine = () => new ContextCompressor({ model: { model: "test-model", contextLength: 10_000 }, compression: { prepare_at: 0.8, protect_last_n: 4 } });

describe("background compaction asked for by callers without a session shell", () => {
  it("prepares at prepare_at of gateway hygiene's threshold before any usage, and the hygiene compaction applies it", async () => {
    const compressor = engine();
    const chat = history(16, 1_800);
    expect(prepareEngineCompression(compressor, chat)).toMatchObject({ state: "started", messages: 16 });
    for (let i = 0; i < 100 && compressor.preparationStatus().state === "pending"; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(compressor.preparationStatus().state).toBe("ready");
    await compressor.compress([...chat, ...history(2, 10)], { force: true });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "applied" });
  });

  it("judges the engine's own trigger once usage is reported, and leaves an engine that cannot prepare alone", () => {
    expect(prepareEngineCompression(engine(), history(16, 1_800), { promptTokens: 1_000 })?.state).toBe("not_due");
    expect(prepareEngineCompression(new RecordingEngine(), history(16, 1_800))).toBeUndefined();
  });
});
