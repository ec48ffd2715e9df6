import type { LanguageModelUsage, ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "@context-engine/core";
import { createAiSdkAdapter } from "../src/index.js";

const PNG_BASE64 = "iVBORw0KGgo".repeat(40);
const SCREENSHOT = `data:image/png;base64,${PNG_BASE64}`;

function usage(inputTokens: number): LanguageModelUsage {
  return {
    inputTokens,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    outputTokens: 5,
    outputTokenDetails: { textTokens: 5, reasoningTokens: undefined },
    totalTokens: inputTokens + 5,
  };
}

let callSeq = 0;
/** `rounds` file reads (a call and its result each), then a reply saying so. */
function agentWork(label: string, rounds: number): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < rounds; i++) {
    const toolCallId = `call_${++callSeq}`;
    const path = `src/${label}_${i}.ts`;
    out.push({ role: "assistant", content: [{ type: "tool-call", toolCallId, toolName: "readFile", input: { path } }] });
    out.push({ role: "tool", content: [{ type: "tool-result", toolCallId, toolName: "readFile", output: { type: "text", value: `${path}: ${"lorem ipsum dolor sit amet ".repeat(24)}` } }] });
  }
  out.push({ role: "assistant", content: `Read the ${label} files.` });
  return out;
}

/** True when a user message of `messages` still carries the screenshot (as its data URL, or its base64 with the media type). */
const keepsTheScreenshot = (messages: readonly ModelMessage[]) =>
  messages.some((m) => m.role === "user" && Array.isArray(m.content) && m.content.some((p) => p.type === "image" && (p.image === SCREENSHOT || (p.image === PNG_BASE64 && p.mediaType === "image/png"))));

describe("the AI SDK adapter with the built-in compressor at a 2k window", () => {
  it("keeps an ask that holds only an image through every compaction", async () => {
    const engine = new ContextCompressor({ model: { model: "tiny", contextLength: 2_000 } });
    const adapter = createAiSdkAdapter({ engine });
    const history: ModelMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "Fix the layout" },
      { role: "assistant", content: "ok" },
      ...agentWork("a", 3),
      { role: "user", content: [{ type: "image", image: SCREENSHOT, mediaType: "image/png" }] },
      ...agentWork("b", 3),
    ];
    for (let step = 1; step <= 3; step++) {
      const prepared = await adapter.prepareStep({ steps: [{ usage: usage(1_950) }], stepNumber: step, messages: history });
      expect(prepared, `step ${step} sends a compacted view`).toBeDefined();
      expect(keepsTheScreenshot(prepared!.messages), `after compaction ${step}`).toBe(true);
      history.push(...agentWork(`c${step}`, 3));
    }
    expect(engine.compressionCount).toBeGreaterThanOrEqual(2);
  });
});
