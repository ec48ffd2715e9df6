import { describe, expect, it } from "vitest";
import { z } from "zod";
import { unknownConfigKeyMessage } from "../../src/config/keys.js";
import type { DeclaredSection } from "../../src/config/pluginSettings.js";

/** lcm's section, declared as its plugin declares it (a loose object: its own keys, others kept), and a third-party plugin's strict one. */
const sections: DeclaredSection[] = [
  { name: "lcm", schema: z.looseObject({ fresh_tail: z.number().default(32) }), owner: "@context-engine/lcm" },
  { name: "head_tail", schema: z.object({ keep_last: z.number().int().min(1).default(20) }), owner: "plugins/context_engine/head_tail/index.ts" },
];

describe("unknownConfigKeyMessage", () => {
  it("accepts schema keys, keys of free maps and the keys of the sections plugins declare", () => {
    for (const key of ["strict", "context.engine", "compression.threshold", "auxiliary.compression.timeout", "model", "model.context_length", "prices.my-model", "compression.model_thresholds.glm-5", "lcm.fresh_tail", "head_tail.keep_last"]) {
      expect(unknownConfigKeyMessage(key, sections), key).toBeUndefined();
    }
  });

  it("refuses a key a plugin's schema does not declare, suggesting the one it probably meant", () => {
    expect(unknownConfigKeyMessage("head_tail.kep_last", sections)).toBe("head_tail.kep_last is not a configuration key — did you mean head_tail.keep_last?");
    expect(unknownConfigKeyMessage("lcm.fresh_tial", sections)).toBe("lcm.fresh_tial is not a configuration key — did you mean lcm.fresh_tail?");
  });

  it("names the section when no plugin declares it", () => {
    expect(unknownConfigKeyMessage("head_tail.keep_last")).toBe("head_tail.keep_last is not a configuration key (no plugin declares a head_tail section)");
  });

  it("names an unknown key and suggests the nearest known key at the level it went wrong", () => {
    expect(unknownConfigKeyMessage("compression.treshold")).toBe("compression.treshold is not a configuration key — did you mean compression.threshold?");
    expect(unknownConfigKeyMessage("compresion.threshold")).toBe("compresion.threshold is not a configuration key — did you mean compression.threshold?");
    expect(unknownConfigKeyMessage("lcmm.fresh_tail", sections)).toBe("lcmm.fresh_tail is not a configuration key — did you mean lcm.fresh_tail?");
  });

  it("names an unknown key without a suggestion when no known key is close", () => {
    expect(unknownConfigKeyMessage("telemetry.endpoint")).toBe("telemetry.endpoint is not a configuration key (no plugin declares a telemetry section)");
    expect(unknownConfigKeyMessage("compression.threshold.value")).toBe("compression.threshold.value is not a configuration key");
  });

  it("refuses reserved and inherited names that would pass as known keys through Object's prototype", () => {
    expect(unknownConfigKeyMessage("constructor")).toBe("constructor is not a configuration key — 'constructor' is a reserved name");
    expect(unknownConfigKeyMessage("lcm.__proto__.x")).toBe("lcm.__proto__.x is not a configuration key — '__proto__' is a reserved name");
    expect(unknownConfigKeyMessage("compression.toString")).toMatch(/^compression\.toString is not a configuration key/);
  });
});
