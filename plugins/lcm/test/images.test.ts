import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import type { ChatMessage } from "../src/core.js";
import { imagesAsMarkers } from "../src/imageText.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

const server = useOpenAIFixtureServer({ kind: "success", content: "## Goal\n- fixture summary" });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg".repeat(30);

/** A conversation whose first turns carry a screenshot: as a data URL in the text, and as an image part. */
function withScreenshots(turns: number): ChatMessage[] {
  const [system, ...rest] = conversation(turns);
  return [
    system!,
    { role: "user", content: `Here is the failing page: data:image/png;base64,${PNG} — the header overlaps.` },
    { role: "assistant", content: "I see the overlap." },
    { role: "user", content: [{ type: "text", text: "And the fixed one:" }, { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }] },
    { role: "assistant", content: "That looks right." },
    ...rest,
  ];
}

const summarizer = () => new OpenAICompatibleSummarizer({ baseUrl: server.current.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });

describe("images in compacted turns", () => {
  it("reach the summarizer as [image] markers, never as base64", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer() });
    await engine.compress(withScreenshots(40));
    const sent = server.current.requests.map((r) => r.rawBody).join("\n");
    expect(sent).toContain("the failing page: [image] — the header overlaps");
    // the image part of the other turn too
    expect(sent.split("[image]").length - 1).toBeGreaterThanOrEqual(2);
    expect(sent).not.toContain("iVBORw0KGgo");
    engine.close();
  });

  it("show as [image] in the deterministic fallback summary, never as base64", async () => {
    server.current.setDefault({ kind: "status", status: 500 });
    const engine = makeEngine(dir, { summarizer: summarizer(), warn: () => {} });
    await engine.compress(withScreenshots(40));
    const summaries = engine.store.allSummaries("default");
    const first = summaries.find((s) => s.kind === "leaf" && s.seqStart === 1)!;
    expect(first.level).toBe(3);
    expect(first.content).toContain("the failing page: [image]");
    expect(summaries.map((s) => s.content).join("\n")).not.toContain("iVBORw0KGgo");
    engine.close();
  });

  it("are never indexed as text: lcm_grep does not find the payload, lcm_expand still returns the turn verbatim", async () => {
    const engine = makeEngine(dir, { contextLength: 1_000_000 });
    const input = withScreenshots(2);
    await engine.ingest(input);
    const grep = async (pattern: string) => parseResult(await engine.handleToolCall("lcm_grep", { pattern, scope: "messages" }));
    expect((await grep("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg*")).count).toBe(0);
    expect((await grep("iVBORw0KGgo")).count).toBe(0);
    const found = await grep("overlaps");
    expect(found.count).toBe(1);
    expect(found.matches[0].snippet).toContain("[image]");
    const stored = engine.store.getMessagesBySeq("default", 1, 1)[0]!;
    const page = parseResult(await engine.handleToolCall("lcm_expand", { id: stored.id, maxTokens: 20_000 }));
    expect(page.message).toEqual(input[1]);
    engine.close();
  });

  it("replaces data URLs and bare base64 image files, and leaves other text alone", () => {
    expect(imagesAsMarkers(`a data:image/jpeg;base64,/9j/4AAQSkZJRg== b`)).toBe("a [image] b");
    expect(imagesAsMarkers(`screenshot: ${PNG}\ndone`)).toBe("screenshot: [image]\ndone");
    const plain = "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 and data:text/plain;base64,aGVsbG8=";
    expect(imagesAsMarkers(plain)).toBe(plain);
  });
});
