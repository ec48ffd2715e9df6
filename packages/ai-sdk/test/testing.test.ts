/** The AI SDK test kit: any engine, by name, path or instance, in a real tool loop with a scripted model. */
import { describe, expect, it } from "vitest";
import { runAiSdkToolLoop } from "@context-engine/ai-sdk/testing";
import { loopKitCases, SLIDING_WINDOW_DIR } from "../../../test/support/loopKitCases.js";

describe("runAiSdkToolLoop", () => {
  loopKitCases(runAiSdkToolLoop);

  it("runs the engine through the model's middleware (wrapLanguageModel) as well as prepareStep", async () => {
    const run = await runAiSdkToolLoop({ engine: SLIDING_WINDOW_DIR, via: "middleware" });
    expect(run.steps[2]!.compressions).toHaveLength(1);
    expect(run.steps[2]!.messages.length).toBeLessThan(run.steps[1]!.messages.length);
  });
});
