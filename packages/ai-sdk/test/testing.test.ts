/** The AI SDK test kit: any engine, by name, path or instance, in a real tool loop with a scripted model. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOOP_CONTEXT_LENGTH, READ_NOTE_TOOL, runAiSdkToolLoop } from "@context-engine/ai-sdk/testing";
import { repoRoot } from "../../../test/support/cli.js";
import { RecordingEngine } from "../../../test/support/recordingEngine.js";

/** A config whose engine is lcm, from the plugin folder, keeping its archive in memory. */
const LCM_CONFIG = ["context:", "  engine: lcm", "plugins:", `  - ${JSON.stringify(join(repoRoot, "plugins/lcm"))}`, "lcm:", '  db_path: ":memory:"', "  fresh_tail: 2", "  leaf_chunk_tokens: 300", ""].join("\n");

describe("runAiSdkToolLoop", () => {
  it("runs the engine a config names in a tool loop: the step after usage past the trigger is sent the compacted view, and each step records what it sent", async () => {
    const run = await runAiSdkToolLoop({ config: LCM_CONFIG });
    expect(run.engine.name).toBe("lcm");
    expect(run.steps.map((s) => s.promptTokens)).toEqual([800, 7600, 1600, 1200]);
    expect(run.steps.map((s) => s.compressions.length)).toEqual([0, 0, 1, 0]);
    const [compression] = run.steps[2]!.compressions;
    expect(compression).toMatchObject({ promptTokens: 7600, trigger: "usage", compressionCount: 1 });
    expect(run.steps[2]!.messages.length).toBe(compression!.messagesAfter);
    expect(compression!.messagesAfter).toBeLessThan(compression!.messagesBefore);
    expect(run.steps[1]!.messages.length + 2).toBe(compression!.messagesBefore);
    expect(run.steps[0]!.tools).toEqual([READ_NOTE_TOOL, "lcm_describe", "lcm_expand", "lcm_grep"].sort());
    expect(run.text).toBe("The zebra note says the herd crossed the river at dawn.");
    expect(run.status).toMatchObject({ compressionCount: 1, lastPromptTokens: 1200 });
    expect(run.warnings).toEqual([]);
  });

  it("runs a directory engine given by its folder, and the same engine through the model's middleware", async () => {
    const dir = join(repoRoot, "plugins/context_engine/sliding_window");
    for (const via of ["prepareStep", "middleware"] as const) {
      const run = await runAiSdkToolLoop({ engine: dir, via });
      expect(run.engine.name, via).toBe("sliding_window");
      expect(run.steps[2]!.compressions, via).toHaveLength(1);
      expect(run.steps[2]!.messages.length, via).toBeLessThan(run.steps[1]!.messages.length);
    }
  });

  it("runs an engine instance with a script of the test's own, calling the engine's tool", async () => {
    const engine = new RecordingEngine();
    const run = await runAiSdkToolLoop({
      engine,
      contextLength: LOOP_CONTEXT_LENGTH,
      script: [{ toolCalls: [{ name: "echo", input: { text: "hi" } }], promptTokens: 7_900 }, { text: "done", promptTokens: 20 }],
    });
    expect(run.engine).toBe(engine);
    expect(run.steps[0]!.toolCalls).toEqual(["echo"]);
    expect(run.steps[1]!.compressions).toHaveLength(1);
    expect(run.steps[1]!.messages.length).toBeLessThan(run.steps[0]!.messages.length + 2);
    expect(run.text).toBe("done");
  });

  it("throws for an engine name that nothing offers, instead of falling back to the built-in compressor", async () => {
    await expect(runAiSdkToolLoop({ engine: "no_such_engine" })).rejects.toThrow(/no_such_engine/);
  });
});
