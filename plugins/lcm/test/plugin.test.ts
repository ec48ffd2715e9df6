import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createContextHost, createHostHooks } from "@context-engine/core";
import { createLcmEngine, LcmEngine, LcmStore, parseLcmConfig, register, resolveDbPath } from "../src/index.js";
import { conversation, parseResult, tempDir } from "./support.js";

// the package folder: the host resolves a folder in plugins: through its package.json
const PLUGIN_DIR = fileURLToPath(new URL("..", import.meta.url));

describe("the lcm plugin", () => {
  it("registers an 'lcm' engine factory that reads config.lcm", async () => {
    const { dir, cleanup } = tempDir();
    const offered: { factory: unknown; name?: string }[] = [];
    try {
      register({ registerContextEngine: (factory, name) => void offered.push({ factory, name }), config: { lcm: { fresh_tail: 5 } }, rootDir: dir });
      expect(offered).toHaveLength(1);
      expect(offered[0]!.name).toBe("lcm");
      const make = offered[0]!.factory as (ctx: unknown) => Promise<LcmEngine>;
      const engine = await make({ config: { lcm: { fresh_tail: 5, db_path: "state/x.db" } }, rootDir: dir, warn: () => {} });
      expect(engine).toBeInstanceOf(LcmEngine);
      expect(engine.settings.fresh_tail).toBe(5);
      expect(engine.store.path).toBe(join(dir, "state/x.db"));
      expect(existsSync(join(dir, "state/x.db"))).toBe(true);
      engine.close();
    } finally {
      cleanup();
    }
  });

  it("takes a PostgreSQL URL as lcm.database_url, refuses another scheme or both stores, naming the key", () => {
    expect(parseLcmConfig({ database_url: "postgres://u@db:5432/lcm" }).database_url).toBe("postgres://u@db:5432/lcm");
    expect(() => parseLcmConfig({ database_url: "mysql://db/lcm" })).toThrow(/lcm\.database_url: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(() => register({ registerContextEngine: () => {}, config: { lcm: { database_url: "postgres://db/lcm", db_path: "x.db" } } })).toThrow(/lcm\.database_url: give either db_path .* or database_url/);
  });

  it("opens lcm.database_url through the store driver a plugin tapped into the host's hooks, and owns that store", async () => {
    const hooks = createHostHooks();
    const asked: { kind: string; url: string }[] = [];
    const store = new LcmStore(":memory:");
    hooks.storeDriver.tapPromise("another-driver", async () => undefined);
    hooks.storeDriver.tapPromise("test-driver", async (request) => {
      asked.push(request);
      return request.kind === "lcm" ? store : undefined;
    });
    let factory: ((ctx: never) => Promise<LcmEngine>) | undefined;
    register({ registerContextEngine: (made) => void (factory = made as never), config: { lcm: { database_url: "postgres://db/lcm" } }, hooks });
    const engine = await factory!({ config: { lcm: { database_url: "postgres://db/lcm" } }, rootDir: "/nonexistent", warn: () => {} } as never);
    expect(asked).toEqual([{ kind: "lcm", url: "postgres://db/lcm" }]);
    expect(engine.store).toBe(store);
    await engine.close();
    expect(store.isOpen).toBe(false);
  });

  it("names lcm.database_url and the plugin to list when no store driver opens the URL", async () => {
    const context = { config: { lcm: { database_url: "postgresql://db/lcm" } }, rootDir: "/nonexistent", warn: () => {} };
    const problem = /Invalid lcm config: lcm\.database_url: no store driver opens postgresql:\/\/ URLs: add "@context-engine\/postgres" to plugins:/;
    await expect(createLcmEngine({ ...context, hooks: createHostHooks() })).rejects.toThrow(problem);
    await expect(createLcmEngine(context)).rejects.toThrow(problem);
    const { dir, cleanup } = tempDir();
    try {
      const config = { context: { engine: "lcm" }, plugins: [PLUGIN_DIR], lcm: { database_url: "postgres://nowhere.invalid/lcm" } };
      await expect(createContextHost({ config: config as never, rootDir: dir, strict: true })).rejects.toThrow(/lcm\.database_url: no store driver opens postgres:\/\/ URLs: add "@context-engine\/postgres" to plugins:/);
    } finally {
      cleanup();
    }
  });

  it("keeps a scratch host's store in memory even with lcm.database_url", async () => {
    const engine = await createLcmEngine({ config: { lcm: { database_url: "postgres://nowhere.invalid/lcm" } }, rootDir: "/nonexistent", warn: () => {}, scratch: true });
    expect((engine.store as LcmStore).path).toBe(":memory:");
    await engine.close();
  });

  it("rejects a bad lcm section at registration, naming the key", () => {
    expect(() => register({ registerContextEngine: () => {}, config: { lcm: { condense_fanin: 1 } } })).toThrow(/lcm\.condense_fanin/);
  });

  it("resolves the db path: default under the root dir, relative to it, or in memory", () => {
    expect(resolveDbPath(undefined, "/r")).toBe("/r/.context-engine/lcm.db");
    expect(resolveDbPath("a.db", "/r")).toBe("/r/a.db");
    expect(resolveDbPath("/abs/a.db", "/r")).toBe("/abs/a.db");
    expect(resolveDbPath(":memory:", "/r")).toBe(":memory:");
  });

  it("is selected by context.engine: lcm through plugins: in a fresh host, and its tools work there", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const host = await createContextHost({ config: { context: { engine: "lcm" }, plugins: [PLUGIN_DIR] } as never, rootDir: dir });
      expect(host.engineSource).toBe("plugin");
      expect(host.engine.name).toBe("lcm");
      expect(host.engine.getToolSchemas().map((t) => t.function.name)).toEqual(["lcm_grep", "lcm_describe", "lcm_expand"]);
      const input = conversation(3);
      expect(await host.engine.compress(input)).toBe(input);
      const found = parseResult(await host.engine.handleToolCall("lcm_grep", { pattern: "zeta1" }));
      expect(found.count).toBeGreaterThan(0);
      expect(existsSync(join(dir, ".context-engine", "lcm.db"))).toBe(true);
      (host.engine as unknown as { close?: () => void }).close?.();
    } finally {
      cleanup();
    }
  });

  it("says in one warning that a database that cannot be opened cannot be opened, with its path and the reason", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const dbPath = join(dir, "garbage.db");
      writeFileSync(dbPath, "this is not an SQLite file, whatever its name says ".repeat(40));
      const host = await createContextHost({ config: { context: { engine: "lcm" }, plugins: [PLUGIN_DIR], lcm: { db_path: dbPath } } as never, rootDir: dir });
      expect(host.engineSource).toBe("builtin");
      expect(host.warnings).toEqual([`Context engine 'lcm' from ${PLUGIN_DIR} failed to start: lcm database ${dbPath} cannot be opened: file is not a database — falling back to built-in compressor`]);
      expect(() => new LcmStore(join(dbPath, "under-a-file.db"))).toThrow(`lcm database ${join(dbPath, "under-a-file.db")} cannot be opened: EEXIST: file already exists, mkdir '${dbPath}'`);
    } finally {
      cleanup();
    }
  });

  it("reads its lcm: section from a config file loaded by the host, without warnings", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, `context:\n  engine: lcm\nplugins:\n  - ${PLUGIN_DIR}\nlcm:\n  fresh_tail: 7\n  db_path: state/lcm.db\n`);
      const host = await createContextHost({ config: configPath, rootDir: dir });
      expect(host.warnings).toEqual([]);
      const engine = host.engine as LcmEngine;
      expect(engine.settings.fresh_tail).toBe(7);
      expect(engine.store.path).toBe(join(dir, "state/lcm.db"));
      engine.close();
    } finally {
      cleanup();
    }
  });

  it("warns about an unknown lcm: key, naming its path and the key it probably meant", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, `context:\n  engine: lcm\nplugins:\n  - ${PLUGIN_DIR}\nlcm:\n  treshold: 0.6\n  zzz_unrelated: 1\n  db_path: state/lcm.db\n`);
      const host = await createContextHost({ config: configPath, rootDir: dir });
      expect(host.engine.name).toBe("lcm");
      expect(host.warnings).toHaveLength(2);
      expect(host.warnings[0]).toMatch(/lcm\.treshold is not an lcm setting \(ignored\) — did you mean lcm\.threshold\?/);
      expect(host.warnings[1]).toMatch(/lcm\.zzz_unrelated is not an lcm setting \(ignored\)$/);
      (host.engine as LcmEngine).close();
    } finally {
      cleanup();
    }
  });

  it("refuses an unknown lcm: key in strict mode, naming its path", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, `context:\n  engine: lcm\nplugins:\n  - ${PLUGIN_DIR}\nlcm:\n  fresh_tial: 7\n  db_path: state/lcm.db\n`);
      await expect(createContextHost({ config: configPath, rootDir: dir, strict: true })).rejects.toThrow(/lcm\.fresh_tial is not an lcm setting — did you mean lcm\.fresh_tail\?/);
      await expect(createContextHost({ config: { context: { engine: "lcm" }, plugins: [PLUGIN_DIR], strict: true, lcm: { fresh_tial: 7, db_path: join(dir, "x.db") } } as never, rootDir: dir })).rejects.toThrow(/lcm\.fresh_tial/);
    } finally {
      cleanup();
    }
  });

  it("stays inactive unless context.engine names it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const host = await createContextHost({ config: { plugins: [PLUGIN_DIR] } as never, rootDir: dir });
      expect(host.engine.name).toBe("compressor");
      expect(host.registeredEngines).toContain("lcm");
    } finally {
      cleanup();
    }
  });
});
