import { describe, expect, it } from "vitest";
import { pendingWorkLine, pendingWorkOf } from "../../src/session/pendingWork.js";

const NOW = 1_800_000_000_000;

describe("pendingWorkOf", () => {
  it("reads requests, saved summaries and live claims by the keys engines share work under, and nothing else", () => {
    const work = pendingWorkOf(
      [
        { engine: "compressor", state: { summary: "the session's own state" }, updatedAt: NOW - 5_000 },
        { engine: "compressor#compact_request", state: {}, updatedAt: NOW - 4_000 },
        { engine: "compressor#prepared", state: { version: 1, messages: 81 }, updatedAt: NOW - 3_000 },
        { engine: "lcm#preparing", state: { messages: 40, claimedAt: NOW - 10_000 }, updatedAt: NOW - 10_000 },
        { engine: "#prepared", state: {}, updatedAt: NOW },
      ],
      NOW,
    );
    expect(work).toEqual([
      { kind: "compact_request", engine: "compressor", since: NOW - 4_000 },
      { kind: "prepared_summary", engine: "compressor", messages: 81, since: NOW - 3_000 },
      { kind: "preparing", engine: "lcm", messages: 40, since: NOW - 10_000, expiresAt: NOW + 20_000 },
    ]);
    expect(pendingWorkLine(work[0]!)).toBe("compact_context request for engine 'compressor', made 2027-01-15 07:59: the next turn compacts");
  });

  it("leaves out a claim that expired: the worker that held it is gone, and another prepares the range", () => {
    expect(pendingWorkOf([{ engine: "compressor#preparing", state: { messages: 81, claimedAt: NOW - 31_000 }, updatedAt: NOW - 31_000 }], NOW)).toEqual([]);
  });
});
