import { describe, expect, it } from "vitest";
import { assembleContext, type LoadedItem } from "../src/assemble.js";
import type { ChatMessage } from "../src/core.js";
import { isExternalizedPreview } from "../src/externalize.js";
import { assembleWithin } from "../src/fitContext.js";

const countMessage = (message: ChatMessage): number => Math.ceil(JSON.stringify(message.content ?? "").length / 4);

let seq = 0;
function stored(message: ChatMessage): LoadedItem {
  seq += 1;
  return { type: "message", stored: { id: `m${seq}`, rowId: seq, session: "s", seq, role: message.role, message, tokens: countMessage(message), identity: Buffer.alloc(16), createdAt: seq } };
}

/** An ask, a call, its output of `lines` log lines (about 9 tokens a line), the answer. */
function readLog(lines: number): LoadedItem[] {
  return [
    stored({ role: "user", content: "Read the build log." }),
    stored({ role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: "{\"path\":\"build.log\"}" } }] }),
    stored({ role: "tool", tool_call_id: "log", content: Array.from({ length: lines }, (_, i) => `line ${i}: request ${i * 7} took ${i % 13} ms`).join("\n") }),
    stored({ role: "assistant", content: "The log is long." }),
  ];
}

const SYSTEM: ChatMessage[] = [{ role: "system", content: "You are a careful agent." }];

describe("lcm's context past the window less the output reserve", () => {
  it("keeps a tool output larger than the line out of the context as a preview naming its stored id, so the context fits", () => {
    const items = readLog(1_000);
    const output = assembleWithin(SYSTEM, items, { externalizeAboveTokens: 8_000 }, 2_000, countMessage);
    const tool = output.find((m) => m.role === "tool")!;
    expect(isExternalizedPreview(tool)).toBe(true);
    expect(String(tool.content)).toContain(`stored as ${(items[2] as Extract<LoadedItem, { type: "message" }>).stored.id}`);
    expect(output.reduce((sum, m) => sum + countMessage(m), 0)).toBeLessThanOrEqual(2_000);
  });

  it("assembles as before when the context fits the line", () => {
    const items = readLog(50);
    expect(assembleWithin(SYSTEM, items, { externalizeAboveTokens: 8_000 }, 2_000, countMessage)).toEqual(assembleContext(SYSTEM, items, { externalizeAboveTokens: 8_000 }));
  });
});
