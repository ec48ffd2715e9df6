import { describe, expect, it } from "vitest";
import { unknownConfigKeyMessage } from "../../src/config/keys.js";

describe("unknownConfigKeyMessage", () => {
  it("accepts schema keys, keys of free maps and keys of plugin sections", () => {
    for (const key of ["strict", "context.engine", "compression.threshold", "auxiliary.compression.timeout", "model", "model.context_length", "prices.my-model", "compression.model_thresholds.glm-5", "lcm.fresh_tail", "sliding_window.keep"]) {
      expect(unknownConfigKeyMessage(key), key).toBeUndefined();
    }
  });

  it("names an unknown key and suggests the nearest known key at the level it went wrong", () => {
    expect(unknownConfigKeyMessage("compression.treshold")).toBe("compression.treshold is not a configuration key — did you mean compression.threshold?");
    expect(unknownConfigKeyMessage("compresion.threshold")).toBe("compresion.threshold is not a configuration key — did you mean compression.threshold?");
    expect(unknownConfigKeyMessage("lcmm.fresh_tail")).toBe("lcmm.fresh_tail is not a configuration key — did you mean lcm.fresh_tail?");
  });

  it("names an unknown key without a suggestion when no known key is close", () => {
    expect(unknownConfigKeyMessage("telemetry.endpoint")).toBe("telemetry.endpoint is not a configuration key");
    expect(unknownConfigKeyMessage("compression.threshold.value")).toBe("compression.threshold.value is not a configuration key");
  });

  it("refuses reserved and inherited names that would pass as known keys through Object's prototype", () => {
    expect(unknownConfigKeyMessage("constructor")).toBe("constructor is not a configuration key — 'constructor' is a reserved name");
    expect(unknownConfigKeyMessage("lcm.__proto__.x")).toBe("lcm.__proto__.x is not a configuration key — '__proto__' is a reserved name");
    expect(unknownConfigKeyMessage("compression.toString")).toMatch(/^compression\.toString is not a configuration key/);
  });
});
