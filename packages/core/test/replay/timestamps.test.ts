import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { messageTimestampMs, requestTimestamps } from "../../src/replay/timestamps.js";

const msg = (role: ChatMessage["role"], timestamp?: unknown): ChatMessage => ({ role, content: "x", ...(timestamp === undefined ? {} : { timestamp }) }) as ChatMessage;

describe("request timestamps", () => {
  it("reads ISO strings, epoch milliseconds and epoch seconds", () => {
    expect(messageTimestampMs(msg("user", "2025-06-01T00:00:10Z"))).toBe(Date.UTC(2025, 5, 1, 0, 0, 10));
    expect(messageTimestampMs(msg("user", 1_748_736_010_000))).toBe(1_748_736_010_000);
    expect(messageTimestampMs(msg("user", 1_748_736_010))).toBe(1_748_736_010_000);
    expect(messageTimestampMs(msg("user", "not a date"))).toBeUndefined();
    expect(messageTimestampMs(msg("user"))).toBeUndefined();
  });

  it("uses a fixed cadence when no message has a timestamp", () => {
    const t = [msg("user"), msg("assistant"), msg("user"), msg("assistant")];
    expect(requestTimestamps(t, [1, 3], 1_000, 20_000)).toEqual({ times: [1_000, 21_000], source: "cadence" });
  });

  it("sends a request at the latest timestamp before its response and never goes back in time", () => {
    const t = [msg("user", 5_000_000_000_000), msg("assistant", 5_000_000_003_000), msg("tool"), msg("assistant"), msg("user", 4_000_000_000_000), msg("assistant")];
    expect(requestTimestamps(t, [1, 3, 5], 0, 20_000).times).toEqual([5_000_000_000_000, 5_000_000_003_000, 5_000_000_003_000]);
  });
});
