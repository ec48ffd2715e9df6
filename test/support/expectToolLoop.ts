/** The set-up and checks of the adapters' tool loop (toolLoopScenario.ts), on what the model was sent. */
import { rmSync } from "node:fs";
import { afterEach, beforeEach, expect } from "vitest";
import { validateConversation, type ChatMessage, type ContextHost } from "@context-engine/core";
import type { FixtureServer } from "./openaiFixtureServer.js";
import { useOpenAIFixtureServer } from "./useOpenAIFixtureServer.js";
import { FINAL_PROMPT_TOKENS, scenarioDir, SYSTEM_PROMPT, sentMessages, sentTools } from "./toolLoopScenario.js";

/** The test file's loopback server (see useOpenAIFixtureServer), the running test's temp folder and the host it made. */
export interface ToolLoopFixture {
  readonly server: FixtureServer;
  readonly dir: string;
  host: ContextHost | undefined;
}

/** A loopback server for the file; before each test a temp folder; after it the host's engine closed and the folder removed. */
export function useToolLoopFixture(): ToolLoopFixture {
  const server = useOpenAIFixtureServer();
  let dir: string | undefined;
  const fixture: ToolLoopFixture = {
    get server() {
      return server.current;
    },
    get dir() {
      return dir!;
    },
    host: undefined,
  };
  beforeEach(() => {
    dir = scenarioDir();
  });
  afterEach(() => {
    (fixture.host?.engine as { close?: () => void } | undefined)?.close?.();
    fixture.host = undefined;
    rmSync(dir!, { recursive: true, force: true });
  });
  return fixture;
}

/** What the checks found, for extra assertions. */
export interface LoopFindings {
  /** The messages of the request sent right after the compaction. */
  compacted: ChatMessage[];
  /** The messages of the request before it (the whole history). */
  before: ChatMessage[];
  /** The engine tool's result as the model received it. */
  engineToolResult: string;
}

/**
 * Checks the loop on the wire: four requests; the third (after the answer that reported
 * {@link PAST_THRESHOLD_TOKENS}) is shorter than the whole history, provider-valid, keeps the system prompt
 * and the newest tool result; the fourth carries the engine tool's result; the engine compressed once and
 * holds the last reported usage.
 */
export function expectCompressedLoop(server: FixtureServer, host: ContextHost, engineTool: "lcm_grep" | "readFile"): LoopFindings {
  const requests = server.requests;
  expect(requests).toHaveLength(4);
  const [, second, third, fourth] = requests.map(sentMessages);
  // without the engine the third request would be the second one plus its answer and that answer's tool result
  expect(third!.length).toBeLessThan(second!.length + 2);
  expect(validateConversation(third!)).toEqual([]);
  expect(validateConversation(fourth!)).toEqual([]);
  expect(third![0]).toMatchObject({ role: "system", content: expect.stringContaining(SYSTEM_PROMPT) });
  expect(JSON.stringify(third)).toContain("[CONTEXT COMPACTION]");
  expect(third!.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_yak", content: expect.stringContaining("yak field note") });
  // the next step is sent the compacted conversation plus what came after it, not the whole history again
  expect(fourth!.slice(0, third!.length)).toEqual(third);
  const engineResult = fourth!.find((m) => m.role === "tool" && m.tool_call_id === "call_engine");
  expect(engineResult, "the engine tool's result reached the model").toBeDefined();
  const text = typeof engineResult!.content === "string" ? engineResult!.content : JSON.stringify(engineResult!.content);
  if (engineTool === "lcm_grep") {
    expect(sentTools(requests[0]!)).toEqual(expect.arrayContaining(["lcm_grep", "readFile"]));
    const found = JSON.parse(text) as { count?: number };
    expect(found.count, text).toBeGreaterThan(0);
    expect(text).toContain("zebra");
  }
  expect(host.engine.compressionCount).toBe(1);
  expect(host.engine.lastPromptTokens).toBe(FINAL_PROMPT_TOKENS);
  return { compacted: third!, before: second!, engineToolResult: text };
}
