import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { engineGatewayHygiene, engineHygieneSettings } from "../../src/gateway/engineHygiene.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { RecordingEngine } from "../../../../test/support/recordingEngine.js";

/** `count` alternating user/assistant messages of `chars` characters each (about chars/4 tokens). */
function history(count: number, chars: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? "user" : "assistant", content: "x".repeat(chars) }));
}

const model = { model: "test-model", contextLength: 10_000 };

describe("gateway hygiene judged for an engine", () => {
  it("compacts by the rough estimate at 85 % of the engine's window when no usage is known", () => {
    const engine = new ContextCompressor({ model });
    expect(engineGatewayHygiene(engine, history(4, 9_000))).toMatchObject({ compress: true, reason: "context_threshold", tokenSource: "estimate", thresholdTokens: 8_500 });
    expect(engineGatewayHygiene(engine, history(4, 7_000))).toMatchObject({ compress: false, reason: "below_threshold" });
  });

  it("reads compression.enabled and the hard message limit from an engine that carries them, and is on for one that does not", () => {
    const disabled = new ContextCompressor({ model, compression: { enabled: false, hygiene_hard_message_limit: 6 } });
    expect(engineHygieneSettings(disabled)).toEqual({ enabled: false, hardMessageLimit: 6 });
    expect(engineGatewayHygiene(disabled, history(4, 80_000))).toMatchObject({ compress: false, reason: "disabled" });
    expect(engineGatewayHygiene(new ContextCompressor({ model, compression: { hygiene_hard_message_limit: 6 } }), history(6, 4))).toMatchObject({ compress: true, reason: "hard_message_limit" });
    const plain = new RecordingEngine();
    expect(engineHygieneSettings(plain)).toEqual({});
    expect(engineGatewayHygiene(plain, history(4, 4 * plain.contextLength))).toMatchObject({ compress: true, reason: "context_threshold" });
  });

  it("judges reported usage when the caller gives it", () => {
    const engine = new ContextCompressor({ model });
    expect(engineGatewayHygiene(engine, history(4, 4), { lastPromptTokens: 9_000 })).toMatchObject({ compress: true, tokens: 9_000, tokenSource: "usage" });
  });
});
