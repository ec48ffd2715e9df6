import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { ConfigError } from "../../src/config/load.js";

/** The repository root, where @context-engine/lcm is installed (a dev dependency). */
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** A config object as loadConfig would give it for a config.yaml in `dir`. */
const configIn = (dir: string, engine: string, plugins: string[] = []) => ({ context: { engine }, plugins, sourcePath: join(dir, "config.yaml") }) as never;

describe("an engine that is not found", () => {
  it("names the nearest known engine for a typo in context.engine", async () => {
    const dir = tempProject({ "plugins/context_engine/sliding_window/README": "" }, "ce-notfound-");
    const typo = await createContextHost({ config: configIn(dir, "lcn") });
    expect(typo.warnings).toEqual(["Context engine 'lcn' not found (did you mean lcm?) — falling back to built-in compressor"]);
    const directory = await createContextHost({ config: configIn(dir, "sliding_windo") });
    expect(directory.warnings[0]).toContain("(did you mean sliding_window?)");
    const far = await createContextHost({ config: configIn(dir, "nothere") });
    expect(far.warnings).toEqual(["Context engine 'nothere' not found — falling back to built-in compressor"]);
  });

  it("says to add the lcm package under plugins: when context.engine is lcm without it, and that the package is installed", async () => {
    const installed = await createContextHost({ config: configIn(repoRoot, "lcm") });
    expect(installed.warnings).toEqual([
      `Context engine 'lcm' not found (the 'lcm' engine comes with @context-engine/lcm: add plugins: ["@context-engine/lcm"] to the config; @context-engine/lcm is installed) — falling back to built-in compressor`,
    ]);
  });

  it("puts the hint into strict mode's error too", async () => {
    const error = await createContextHost({ config: configIn(tempProject({}, "ce-notfound-"), "lcn"), strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("no context engine 'lcn'");
    expect((error as Error).message).toContain("did you mean lcm?");
  });
});
