import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseConfigText, validateConfigObject } from "../../src/config/load.js";
import { yamlAliasBomb } from "../../../../test/support/files.js";

function tempFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "ce-hostile-config-")), "config.yaml");
  writeFileSync(path, text);
  return path;
}

/** The error loading `path` rejects with. */
async function loadError(path: string): Promise<Error> {
  return loadConfig(path).then(() => expect.fail("expected a ConfigError"), (error: unknown) => error as Error);
}

describe("config keys named like Object's prototype", () => {
  it.each([
    ["__proto__ at the top", "compression:\n  threshold: 0.5\n__proto__:\n  strict: true\n", 3, "__proto__"],
    ["__proto__ in a section", "compression:\n  __proto__:\n    threshold: 0.9\n", 2, "compression.__proto__"],
    ["constructor at the top", "strict: false\nconstructor: 1\n", 2, "constructor"],
    ["constructor in a section", "compression:\n  enabled: true\n  constructor: 5\n", 3, "compression.constructor"],
    ["__proto__ in a free map", "prices:\n  __proto__: {input: 1, output: 2}\n", 2, "prices.__proto__"],
    ["prototype in a plugin's section", "lcm:\n  prototype: {x: 1}\n", 2, "lcm.prototype"],
  ])("refuses %s as a ConfigError naming file:line and the key", async (_what, text, line, keyPath) => {
    const path = tempFile(text);
    const error = await loadError(path);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${path}:${line} ${keyPath}: `);
    expect(error.message).toMatch(/reserved/);
    expect(({} as Record<string, unknown>).strict).toBeUndefined();
    expect(({} as Record<string, unknown>).threshold).toBeUndefined();
  });

  it("refuses the same keys in a config object handed over directly", () => {
    const raw = JSON.parse('{"compression": {"__proto__": {"threshold": 0.9}}}') as unknown;
    expect(() => validateConfigObject(raw)).toThrow(ConfigError);
    expect(() => validateConfigObject(raw)).toThrow(/compression\.__proto__: .*reserved/);
  });

  it("reports other inherited names such as toString as unknown keys, with their line", () => {
    const config = parseConfigText("toString: 1\ncompression:\n  hasOwnProperty: 2\n", "config.yaml");
    expect(config.unknownSections).toEqual([{ name: "toString", where: "config.yaml:1" }]);
    expect(config.warnings).toEqual(["config.yaml:3: unknown key compression.hasOwnProperty (ignored)"]);
  });
});

describe("a YAML alias bomb", () => {
  it("is refused as a ConfigError naming the file, not expanded", async () => {
    const path = tempFile(`lcm:\n${yamlAliasBomb(10, "  ")}`);
    const error = await loadError(path);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/alias/i);
  });
});
