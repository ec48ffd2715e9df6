/**
 * The cases both adapters' test kits pass (`runAiSdkToolLoop`, `runLangChainAgent`): any engine, by the
 * name its config gives, by a directory engine's folder or as an instance, in a real loop with a scripted model.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import type { LoopRun } from "@context-engine/core/conformance";
import { READ_NOTE_TOOL } from "@context-engine/core/conformance";
import { repoRoot } from "./cli.js";
import { RecordingEngine } from "./recordingEngine.js";

/** A config whose engine is lcm, from the plugin folder, keeping its archive in memory. */
export const LCM_LOOP_CONFIG = ["context:", "  engine: lcm", "plugins:", `  - ${JSON.stringify(join(repoRoot, "plugins/lcm"))}`, "lcm:", '  db_path: ":memory:"', "  fresh_tail: 2", "  leaf_chunk_tokens: 300", ""].join("\n");

/** The sliding_window directory engine's folder. */
export const SLIDING_WINDOW_DIR = join(repoRoot, "plugins/context_engine/sliding_window");

/** A kit's one call: options to a loop run. */
type RunLoop = (options: { engine?: string | RecordingEngine; config?: string; script?: { text?: string; toolCalls?: { name: string; input: Record<string, unknown> }[]; promptTokens?: number }[] }) => Promise<LoopRun>;

/** Defines the shared cases of a kit inside the caller's describe. */
export function loopKitCases(run: RunLoop): void {
  it("runs the engine a config names: the model call after usage past the trigger is sent the compacted view, and each step records what it sent", async () => {
    const result = await run({ config: LCM_LOOP_CONFIG });
    expect(result.engine.name).toBe("lcm");
    expect(result.steps.map((s) => s.promptTokens)).toEqual([800, 7600, 1600, 1200]);
    expect(result.steps.map((s) => s.compressions.length)).toEqual([0, 0, 1, 0]);
    const [compression] = result.steps[2]!.compressions;
    expect(compression).toMatchObject({ promptTokens: 7600, trigger: "usage", compressionCount: 1 });
    expect(result.steps[2]!.messages.length).toBe(compression!.messagesAfter);
    expect(compression!.messagesAfter).toBeLessThan(compression!.messagesBefore);
    // the history the third call would have been sent: the second call's messages, its answer and the tool result
    expect(result.steps[1]!.messages.length + 2).toBe(compression!.messagesBefore);
    expect(result.steps[0]!.tools).toEqual([READ_NOTE_TOOL, "lcm_describe", "lcm_expand", "lcm_grep"].sort());
    expect(result.text).toBe("The zebra note says the herd crossed the river at dawn.");
    expect(result.status).toMatchObject({ compressionCount: 1, lastPromptTokens: 1200 });
    expect(result.warnings).toEqual([]);
  });

  it("runs a directory engine given by its folder", async () => {
    const result = await run({ engine: SLIDING_WINDOW_DIR });
    expect(result.engine.name).toBe("sliding_window");
    expect(result.steps[2]!.compressions).toHaveLength(1);
    expect(result.steps[2]!.messages.length).toBeLessThan(result.steps[1]!.messages.length);
  });

  it("runs an engine instance with a script of the test's own, calling the engine's tool", async () => {
    const engine = new RecordingEngine();
    const result = await run({ engine, script: [{ toolCalls: [{ name: "echo", input: { text: "hi" } }], promptTokens: 7_900 }, { text: "done", promptTokens: 20 }] });
    expect(result.engine).toBe(engine);
    expect(result.steps[0]!.toolCalls).toEqual(["echo"]);
    expect(result.steps[1]!.compressions).toHaveLength(1);
    expect(result.steps[1]!.messages.length).toBeLessThan(result.steps[0]!.messages.length + 2);
    expect(result.text).toBe("done");
  });

  it("throws for an engine name that nothing offers, instead of falling back to the built-in compressor", async () => {
    await expect(run({ engine: "no_such_engine" })).rejects.toThrow(/no_such_engine/);
  });
}
