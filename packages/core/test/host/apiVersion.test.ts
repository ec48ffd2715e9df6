import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { ENGINE_API_VERSION, engineApiVersion } from "../../src/engine/apiVersion.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { hostCoreVersion } from "../../src/host/engineChecks.js";

/** A directory engine `versioned` whose class states `static apiVersion = <version>` (none when undefined). */
function engineStating(version: string | undefined): string {
  return `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Versioned extends ContextEngine {
  ${version === undefined ? "" : `static apiVersion = ${version};`}
  readonly name = "versioned";
  shouldCompress(): boolean { return false; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
`;
}

async function hostFor(version: string | undefined) {
  const rootDir = tempProject({ "plugins/context_engine/versioned/index.ts": engineStating(version) }, "ce-api-");
  const host = await createContextHost({ config: { context: { engine: "versioned" } } as never, rootDir });
  return { host, dir: join(rootDir, "plugins/context_engine/versioned") };
}

describe("the engine contract version", () => {
  it("is 1 in this core, and the built-in engine states it", () => {
    expect(ENGINE_API_VERSION).toBe(1);
    expect(engineApiVersion(new ContextCompressor())).toEqual({ version: ENGINE_API_VERSION });
  });

  it("warns once, saying what to upgrade, when a directory engine states a newer version than the host knows", async () => {
    const { host, dir } = await hostFor("2");
    expect(host.engine.name).toBe("versioned");
    const warnings = host.warnings.filter((w) => w.includes("contract"));
    expect(warnings).toEqual([
      `Context engine 'versioned' (${dir}) was built for engine contract version 2, but this host's @context-engine/core ${hostCoreVersion()} knows version 1: ` +
        "upgrade @context-engine/core to a version supporting contract 2 (the engine may call what this host does not have)",
    ]);
  });

  it("says nothing of an engine that states version 1", async () => {
    const { host } = await hostFor("1");
    expect(host.engine.name).toBe("versioned");
    expect(host.warnings).toEqual([]);
  });

  it("takes an engine that states no version as version 1, without a warning", async () => {
    const { host } = await hostFor(undefined);
    expect(engineApiVersion(host.engine)).toEqual({ version: 1 });
    expect(host.warnings).toEqual([]);
  });

  it("warns about a version that is not a positive whole number and takes it as 1", async () => {
    const { host } = await hostFor('"2.x"');
    expect(host.warnings).toEqual([`Context engine 'versioned' (${join(host.rootDir, "plugins/context_engine/versioned")}) states apiVersion "2.x", not a positive whole number; it is taken as contract version 1`]);
  });
});
