/** No secret of the redaction list reaches a summary model: the built-in compressor's LLM summarizer and lcm's, over a loopback OpenAI-compatible server. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor, OpenAICompatibleSummarizer } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { leakedSecrets, withLeakedSecrets } from "../../../test/support/secrets.js";
import type { ChatMessage } from "../src/core.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const server = useOpenAIFixtureServer({ kind: "success", content: "## Goal\n- fixture summary" });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** A conversation that mentions every secret in a user turn, a tool call's arguments and a tool's output. */
const leaky = (turns: number): ChatMessage[] => withLeakedSecrets(conversation(turns));

const summarizer = () => new OpenAICompatibleSummarizer({ baseUrl: server.current.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });

describe("secrets never reach a summary model", () => {
  it("through the built-in compressor's LLM summarizer", async () => {
    const engine = new ContextCompressor({ model: { model: "test-model", contextLength: 8_000 }, summarizer: summarizer() });
    await engine.compress(leaky(30), { force: true });
    expect(leakedSecrets(server.current.requests)).toEqual([]);
  });

  it("through lcm's summaries", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer() });
    await engine.compress(leaky(40));
    expect(leakedSecrets(server.current.requests)).toEqual([]);
    engine.close();
  });
});
