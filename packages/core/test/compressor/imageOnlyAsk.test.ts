import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { formatSummaryContent } from "../../src/compressor/summaryBody.js";
import { indexConversation } from "../../src/compressor/conversationIndex.js";
import { turnsForSummary } from "../../src/compressor/earlierSummaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { IMAGE_PART_TYPES } from "../../src/tokens/rough.js";
import { assistant, longOutput, roughCounter, system, toolTurn } from "./fixtures.js";

const SCREENSHOT = { type: "image_url", image_url: { url: `data:image/png;base64,${"iVBORw0KGgo".repeat(40)}` } };
const imageOnlyAsk = (): ChatMessage => ({ role: "user", content: [SCREENSHOT] });

/** True when some user message still carries the screenshot. */
const keepsTheScreenshot = (messages: readonly ChatMessage[]) =>
  messages.some((m) => m.role === "user" && Array.isArray(m.content) && m.content.some((p) => IMAGE_PART_TYPES.has(p.type) && JSON.stringify(p) === JSON.stringify(SCREENSHOT)));

const agentWork = (label: string, rounds: number): ChatMessage[] => {
  const out: ChatMessage[] = [];
  for (let i = 0; i < rounds; i++) out.push(...toolTurn("read_file", { path: `src/${label}_${i}.ts` }, longOutput(`src/${label}_${i}.ts`, 8)));
  out.push(assistant(`Read the ${label} files.`));
  return out;
};

describe("an ask that holds only an image", () => {
  it("is kept through every compaction at a 2k window, also after a summary was merged into it", async () => {
    const engine = new ContextCompressor({ model: { model: "tiny", contextLength: 2_000 }, tokenCounter: roughCounter });
    let messages: ChatMessage[] = [system("s"), { role: "user", content: formatSummaryContent("## Goal\n- fix the layout") }, assistant("ok"), ...agentWork("a", 3), imageOnlyAsk(), ...agentWork("b", 3)];
    for (let compaction = 0; compaction < 3; compaction++) {
      messages = await engine.compress(messages, { force: true });
      expect(engine.lastCompression!.aborted).toBe(false);
      expect(keepsTheScreenshot(messages), `after compaction ${compaction + 1}`).toBe(true);
      messages = [...messages, ...agentWork(`c${compaction}`, 3)];
    }
  });

  it("is a real user turn when a summary was merged into it, and the summarizer sees its image", () => {
    const merged: ChatMessage = { role: "user", content: [{ type: "text", text: formatSummaryContent("## Goal\n- g") }, SCREENSHOT] };
    expect(indexConversation([system("s"), merged]).realUsers).toEqual([1]);
    expect(turnsForSummary([merged])).toEqual([{ role: "user", content: [SCREENSHOT] }]);
  });
});
