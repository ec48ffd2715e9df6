import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { HISTORICAL_IMAGE_PLACEHOLDER, stripHistoricalImages } from "../../src/compressor/historicalImages.js";
import { assembleCompressed } from "../../src/compressor/assemble.js";
import type { ChatMessage, ContentPart } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { agentRounds, assistant, roughCounter, system } from "./fixtures.js";

const SUMMARY = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
const image = (name: string): ContentPart => ({ type: "image_url", image_url: { url: `data:image/png;base64,${name}AAAA` } });
const withImage = (text: string, name: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }, image(name)] });

function imagesIn(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === "image_url").map((p) => JSON.stringify(p)) : []));
}

describe("images older than the newest image turn", () => {
  it("are replaced by a placeholder after a compaction; the newest image turn keeps its images", () => {
    const older = withImage("here is the first screenshot", "first");
    const newest = withImage("and the current one", "second");
    const tail: ChatMessage[] = [assistant("Send me screenshots."), older, assistant("I see a login form."), newest, assistant("Now the button is red.")];
    const out = assembleCompressed({ head: [system("s")], summary: SUMMARY, tail, isFirstCompaction: false }).messages;
    expect(imagesIn(out)).toEqual([JSON.stringify(image("second"))]);
    const replaced = out.find((m) => Array.isArray(m.content) && m.content.some((p) => p.text === "here is the first screenshot"))!;
    expect(replaced.content).toEqual([{ type: "text", text: "here is the first screenshot" }, { type: "text", text: HISTORICAL_IMAGE_PLACEHOLDER }]);
    expect(older.content).toEqual([{ type: "text", text: "here is the first screenshot" }, image("first")]);
    expect(out.at(-2)).toBe(newest);
    expect(validateConversation(out)).toEqual([]);
  });

  it("leaves a conversation whose only image turn is the newest unchanged", () => {
    const messages: ChatMessage[] = [system("s"), withImage("look", "only"), assistant("ok")];
    expect(stripHistoricalImages(messages)).toBe(messages);
  });

  it("drops older images through compress() too", async () => {
    const messages: ChatMessage[] = [system("s"), withImage("old screenshot", "old"), assistant("noted"), ...agentRounds(6, 4_000), withImage("new screenshot", "new"), assistant("done")];
    const engine = new ContextCompressor({
      compression: { protect_last_n: 4, threshold_tokens: 20_000 },
      summarizer: { summarize: async () => SUMMARY },
      tokenCounter: roughCounter,
    });
    const out = await engine.compress(messages, { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(imagesIn(out)).toEqual([JSON.stringify(image("new"))]);
  });
});
