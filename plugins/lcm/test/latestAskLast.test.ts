import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageText } from "@context-engine/core";
import { assembleContext, type LoadedItem } from "../src/assemble.js";
import { SUMMARY_END_MARKER, type ChatMessage } from "../src/core.js";
import type { SummaryRecord } from "../src/store/records.js";
import { LATEST_ASKS } from "../../../test/support/latestAsks.js";

const askArb = fc.constantFrom(...LATEST_ASKS);

let seq = 0;
const message = (m: ChatMessage): LoadedItem => {
  seq += 1;
  return { type: "message", stored: { id: `m${seq}`, rowId: seq, session: "s", seq, role: m.role, message: m, tokens: 10, identity: Buffer.alloc(16), createdAt: seq } };
};
const summary = (): LoadedItem => {
  seq += 1;
  const record: SummaryRecord = { id: `sum_${seq}`, session: "s", kind: "leaf", depth: 0, level: 1, content: "Set up the project; fixed modules 0–3.", tokens: 10, sourceTokens: 100, seqStart: 1, seqEnd: 2, createdAt: seq };
  return { type: "summary", summary: record };
};

describe("lcm's assembled context", () => {
  it("keeps the latest ask's own content last in its message when the summary block is merged into it", () => {
    fc.assert(
      fc.property(askArb, fc.boolean(), fc.boolean(), (content, answeredBefore, answeredAfter) => {
        const ask: ChatMessage = { role: "user", content };
        // the block right before the ask: after an assistant turn (or nothing) it takes the user role and merges into the ask
        const items: LoadedItem[] = [
          ...(answeredBefore ? [message({ role: "user", content: "Set up the project." }), message({ role: "assistant", content: "Done." })] : []),
          summary(),
          message(ask),
          ...(answeredAfter ? [message({ role: "assistant", content: "On it." })] : []),
        ];
        const out = assembleContext([{ role: "system", content: "s" }], items);
        const carrier = out.findLast((m) => m.role === "user")!;
        expect(messageText(carrier)).toContain(SUMMARY_END_MARKER);
        if (Array.isArray(content)) {
          const parts = carrier.content as unknown[];
          expect(parts.slice(parts.length - content.length)).toEqual(content);
        } else {
          const text = messageText(carrier);
          expect(text.endsWith(content as string)).toBe(true);
          expect(text.lastIndexOf(SUMMARY_END_MARKER) + SUMMARY_END_MARKER.length).toBeLessThanOrEqual(text.length - (content as string).length);
        }
      }),
    );
  });
});
