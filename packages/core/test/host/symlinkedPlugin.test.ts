import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { ConfigError } from "../../src/config/load.js";
import { createContextHost } from "../../src/host/createContextHost.js";

const TINY = `import { ContextEngine } from "@context-engine/core";
(globalThis as any).__symlinkedPluginRuns = ((globalThis as any).__symlinkedPluginRuns ?? 0) + 1;
export default class Tiny extends ContextEngine {
  readonly name = "tiny";
  shouldCompress() { return false; }
  async compress(messages: any[]) { return messages; }
}
`;

const runs = (): number => ((globalThis as Record<string, unknown>).__symlinkedPluginRuns as number | undefined) ?? 0;

/** A project whose plugins/context_engine/tiny is a symlink to a folder outside it; returns both. */
function projectWithOutsidePlugin(config: string): { root: string; link: string; target: string } {
  const outside = tempProject({ "index.ts": TINY }, "ce-outside-plugin-");
  const root = tempProject({ "config.yaml": config }, "ce-symlink-root-");
  mkdirSync(join(root, "plugins/context_engine"), { recursive: true });
  const link = join(root, "plugins/context_engine/tiny");
  symlinkSync(outside, link, "dir");
  return { root, link, target: realpathSync(outside) };
}

describe("a directory engine symlinked outside the project root", () => {
  it("still loads, with a warning naming the folder and its real target", async () => {
    const { root, link, target } = projectWithOutsidePlugin("context:\n  engine: tiny\n");
    const before = runs();
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect(host.engineSource).toBe("directory");
    expect(runs()).toBe(before + 1);
    expect(host.warnings).toEqual([`Context engine 'tiny': ${link} is a symlink to ${target}, outside ${realpathSync(root)}; its code runs with the host's rights`]);
  });

  it("is a ConfigError under strict, and its code is not run", async () => {
    const { root, link, target } = projectWithOutsidePlugin("strict: true\ncontext:\n  engine: tiny\n");
    const before = runs();
    const error = await createContextHost({ config: join(root, "config.yaml") }).then(() => expect.fail("expected a ConfigError"), (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${join(root, "config.yaml")}:3 context.engine: ${link} is a symlink to ${target}, outside`);
    expect(runs()).toBe(before);
  });

  it("says nothing about a plugin folder symlinked inside the root", async () => {
    const root = tempProject({ "engines/tiny/index.ts": TINY, "config.yaml": "context:\n  engine: tiny\n" }, "ce-symlink-inside-");
    mkdirSync(join(root, "plugins/context_engine"), { recursive: true });
    symlinkSync(join(root, "engines/tiny"), join(root, "plugins/context_engine/tiny"), "dir");
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect([host.engineSource, host.warnings]).toEqual(["directory", []]);
  });
});
