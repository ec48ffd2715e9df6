import { describe, expect, it } from "vitest";
import { InvalidMessagesError, parseMessages } from "../../src/messages/schema.js";

describe("parseMessages", () => {
  it("names the index and field of every malformed message", () => {
    const input = [{ role: "user", content: "ok" }, { role: "bogus", content: "x" }, { role: "assistant", tool_calls: "nope" }];
    expect(() => parseMessages(input, "test")).toThrow(InvalidMessagesError);
    expect(() => parseMessages(input, "test")).toThrow(/test[\s\S]*\[1\][\s\S]*\[2\]\.tool_calls/);
  });

  it("takes the indexes a caller trusts as given and checks only the rest", () => {
    const known = { role: "user", content: "already checked", extra: 1 };
    const out = parseMessages([known, { role: "assistant", content: "new" }], "test", (i) => i === 0);
    expect(out[0]).toBe(known);
    expect(out[1]).toEqual({ role: "assistant", content: "new" });
    expect(() => parseMessages([known, { role: "user", content: 3 }], "test", (i) => i === 0)).toThrow(/\[1\]\.content/);
  });
});
