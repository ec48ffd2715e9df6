import { describe, expect, it } from "vitest";
import {
  gatewayHygiene,
  hygieneAfterMessage,
  hygieneCalibration,
  hygieneThresholdTokens,
  HYGIENE_ABORT_NOTICE,
} from "../../src/gateway/hygiene.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { estimateMessagesTokensRough } from "../../src/tokens/rough.js";

/** `count` alternating user/assistant messages of `chars` characters each. */
function history(count: number, chars = 40): ChatMessage[] {
  return Array.from({ length: count }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? "user" : "assistant", content: "x".repeat(chars) }));
}

describe("gatewayHygiene", () => {
  it("never fires on a history of fewer than 4 messages, however large", () => {
    const d = gatewayHygiene(history(3), { contextLength: 1000, lastPromptTokens: 999_999, enabled: true });
    expect(d).toMatchObject({ compress: false, reason: "too_few_messages" });
  });

  it("never fires when compression is disabled", () => {
    const d = gatewayHygiene(history(10), { contextLength: 1000, lastPromptTokens: 999_999, enabled: false });
    expect(d).toMatchObject({ compress: false, reason: "disabled" });
  });

  it("judges the real prompt tokens of the last response when there are any", () => {
    // The messages themselves are tiny; the reported usage is what counts.
    const d = gatewayHygiene(history(4), { contextLength: 100_000, lastPromptTokens: 90_000, enabled: true });
    expect(d).toEqual({ compress: true, reason: "context_threshold", tokens: 90_000, tokenSource: "usage", thresholdTokens: 85_000, inPlace: true });
  });

  it("falls back to the rough estimate when no real usage exists (none yet, or -1 after a compaction)", () => {
    const messages = history(8, 400);
    const estimate = estimateMessagesTokensRough(messages);
    for (const lastPromptTokens of [undefined, 0, -1]) {
      const d = gatewayHygiene(messages, { contextLength: 1000, lastPromptTokens, enabled: true });
      expect(d).toMatchObject({ tokenSource: "estimate", tokens: estimate, compress: estimate >= 850 });
    }
  });

  it("adds the messages that arrived after the reported prompt, scaled by what the report says of the estimate", () => {
    // The last API call saw 8 messages and reported twice their rough estimate; a night of chat added 40.
    const reported = history(8, 400);
    const night = history(40, 400);
    const lastPromptTokens = 2 * estimateMessagesTokensRough(reported);
    const d = gatewayHygiene([...reported, ...night], { contextLength: 11_000, lastPromptTokens, reportedMessages: 8, enabled: true });
    expect(d.tokenSource).toBe("usage+estimate");
    expect(d.tokens).toBe(lastPromptTokens + 2 * estimateMessagesTokensRough(night));
    expect(d.compress).toBe(true);
    // Taking the report alone would have missed the night's messages.
    expect(gatewayHygiene([...reported, ...night], { contextLength: 11_000, lastPromptTokens, enabled: true }).compress).toBe(false);
  });

  it("scales the estimate by an earlier calibration when no usage is known (after a compaction)", () => {
    const messages = history(20, 400);
    const calibration = hygieneCalibration(messages, 3 * estimateMessagesTokensRough(messages));
    expect(calibration).toBe(3);
    const d = gatewayHygiene(messages, { contextLength: 10_000, lastPromptTokens: -1, calibration, enabled: true });
    expect(d).toMatchObject({ tokenSource: "estimate", tokens: 3 * estimateMessagesTokensRough(messages) });
    // A calibration from one odd prompt cannot make the estimate absurd: it is bounded to 0.25–4.
    expect(gatewayHygiene(messages, { contextLength: 10_000, calibration: 1_000, enabled: true }).tokens).toBe(4 * estimateMessagesTokensRough(messages));
    expect(hygieneCalibration(history(4, 4), 1_000)).toBeUndefined();
  });

  it("counts an image as 1,500 tokens in the estimate", () => {
    const messages: ChatMessage[] = [
      ...history(3),
      { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
    ];
    const d = gatewayHygiene(messages, { contextLength: 1_800, enabled: true });
    expect(d.tokens).toBeGreaterThan(1_500);
    expect(d).toMatchObject({ compress: true, reason: "context_threshold", tokenSource: "estimate" });
  });

  it("fires at exactly 85 % of the window and not one token below", () => {
    const state = { contextLength: 200_000, enabled: true };
    expect(hygieneThresholdTokens(200_000)).toBe(170_000);
    expect(gatewayHygiene(history(4), { ...state, lastPromptTokens: 170_000 })).toMatchObject({ compress: true, thresholdTokens: 170_000 });
    expect(gatewayHygiene(history(4), { ...state, lastPromptTokens: 169_999 })).toMatchObject({ compress: false, reason: "below_threshold" });
  });

  it("fires at the hard message limit even when the tokens are low", () => {
    const d = gatewayHygiene(history(5000, 1), { contextLength: 1_000_000, lastPromptTokens: 10, enabled: true });
    expect(d).toMatchObject({ compress: true, reason: "hard_message_limit" });
    const below = gatewayHygiene(history(4999, 1), { contextLength: 1_000_000, lastPromptTokens: 10, enabled: true });
    expect(below.compress).toBe(false);
    expect(gatewayHygiene(history(6), { contextLength: 1_000_000, lastPromptTokens: 10, enabled: true, hardMessageLimit: 6 }).reason).toBe("hard_message_limit");
  });

  it("rejects a window that is not a positive number, naming the field", () => {
    expect(() => gatewayHygiene(history(4), { contextLength: 0, enabled: true })).toThrow(/state\.contextLength must be a positive number/);
    expect(() => gatewayHygiene(history(4), { contextLength: 10, enabled: true, hardMessageLimit: 0 })).toThrow(/state\.hardMessageLimit/);
  });
});

describe("hygieneAfterMessage", () => {
  const base = { contextLength: 100_000, messagesBefore: 400, messagesAfter: 30, tokensBefore: 90_000 };

  it("tells the user in one line that nothing was dropped when compaction aborted", () => {
    const lines = hygieneAfterMessage({ ...base, aborted: true, abortReason: "summarizer quota exceeded", messagesAfter: 400, tokensAfter: 90_000 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(HYGIENE_ABORT_NOTICE);
    expect(lines[0]).toContain("summarizer quota exceeded");
    expect(HYGIENE_ABORT_NOTICE).toBe("No messages were dropped — conversation is unchanged");
  });

  it("warns when the session is still at 95 % of the window or more after compressing", () => {
    expect(hygieneAfterMessage({ ...base, aborted: false, tokensAfter: 95_000 })[0]).toMatch(/still at 95 % of the context window/);
    expect(hygieneAfterMessage({ ...base, aborted: false, tokensAfter: 94_999 })).toEqual([]);
  });
});
