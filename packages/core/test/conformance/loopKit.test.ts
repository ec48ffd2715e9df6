/** The engine a loop kit runs: a name with a config, a directory engine's folder, or an instance, never a silent fallback. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextEngine, validateConfigObject, type ChatMessage } from "@context-engine/core";
import { defaultLoopScript, loopEngine, LOOP_CONTEXT_LENGTH } from "@context-engine/core/conformance";
import { repoRoot } from "../../../../test/support/cli.js";

/** An engine that never compresses. */
class Idle extends ContextEngine {
  readonly name = "idle";
  shouldCompress(): boolean {
    return false;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages;
  }
}

describe("loopEngine", () => {
  it("builds the engine the config names when no engine is given, sized to the loop's window", async () => {
    const { engine, host, warnings } = await loopEngine({ config: validateConfigObject({ context: { engine: "sliding_window" } }), rootDir: repoRoot });
    expect([engine.name, host?.engineSource, warnings, engine.contextLength]).toEqual(["sliding_window", "directory", [], LOOP_CONTEXT_LENGTH]);
  });

  it("sizes an instance to the window given and builds no host", async () => {
    const idle = new Idle();
    const { engine, host } = await loopEngine({ engine: idle, contextLength: 32_000 });
    expect([engine, host, engine.contextLength]).toEqual([idle, undefined, 32_000]);
  });

  it("refuses a folder that is not <root>/plugins/context_engine/<name>, naming the layout", async () => {
    await expect(loopEngine({ engine: mkdtempSync(join(tmpdir(), "ce-loop-")) })).rejects.toThrow(/plugins\/context_engine\/<name>/);
  });

  it("scripts a loop whose second answer reports 95 % of the window, past any trigger", () => {
    expect(defaultLoopScript(10_000).map((t) => t.promptTokens)).toEqual([1_000, 9_500, 2_000, 1_500]);
  });
});
