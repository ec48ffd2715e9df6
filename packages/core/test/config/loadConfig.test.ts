import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseConfigText, setConfigValue } from "../../src/config/load.js";
import { computeThresholds } from "../../src/engine/thresholds.js";
import { createContextHost } from "../../src/host/createContextHost.js";

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ce-config-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("loadConfig", () => {
  it("fills every documented default when the file is empty", async () => {
    const config = await loadConfig(tempFile("config.yaml", ""));
    expect(config.context.engine).toBe("compressor");
    expect(config.plugins).toEqual([]);
    expect(config.compression).toMatchObject({
      enabled: true, threshold: 0.5, target_ratio: 0.2, tail_mode: "lean", protect_last_n: 20, protect_first_n: 3,
      min_tail_user_messages: 1,
      in_place: true, abort_on_summary_failure: false, threshold_tokens: null, hygiene_hard_message_limit: 5000, model_thresholds: {},
    });
    expect(config.codex).toEqual({
      gpt55_autoraise: true, gpt55_autoraise_notice: true, app_server_auto: "native", responses_native: false, responses_compact_threshold: 200_000,
    });
    expect(config.auxiliary.compression).toMatchObject({ model: null, provider: "auto", base_url: null, api_key: null });
    expect(config.prompt_caching.cache_ttl).toBe("5m");
  });

  it("computes the 200k example with defaults: threshold 100,000, tail 20,000, summary 10,000", async () => {
    const config = await loadConfig("compression:\n  enabled: true\n");
    const plan = computeThresholds(
      { model: "any", contextLength: 200_000 },
      { threshold: config.compression.threshold, modelThresholds: config.compression.model_thresholds, targetRatio: config.compression.target_ratio, thresholdTokensCap: config.compression.threshold_tokens },
    );
    expect(plan).toMatchObject({ thresholdTokens: 100_000, tailTokenBudget: 20_000, maxSummaryTokens: 10_000 });
  });

  it("names the key path, the allowed values and the line of a wrong value", async () => {
    const path = tempFile("config.yaml", "compression:\n  threshold: 0.5\nprompt_caching:\n  cache_ttl: 2h\n");
    const error = await loadConfig(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`${path}:4 prompt_caching.cache_ttl: must be "5m" or "1h"`);
  });

  it("names compression.summary_request, its line and both values it takes when it is neither", () => {
    expect(() => parseConfigText("compression:\n  threshold: 0.5\n  summary_request: prefix\n", "c.yaml")).toThrow(
      `c.yaml:3 compression.summary_request: must be "separate" (the range alone, one request of its own) or "suffix" (the conversation's cached prefix plus one instruction)`,
    );
    expect(parseConfigText("compression:\n  summary_request: suffix\n", "c.yaml").compression.summary_request).toBe("suffix");
  });

  it("reports every problem at once, each with its key path", () => {
    const text = "context:\n  engine: ../../etc\ncompression:\n  threshold: 1.5\n  protect_last_n: -2\n  tail_mode: greedy\n";
    const error = (() => { try { parseConfigText(text, "c.yaml"); } catch (e) { return e as ConfigError; } })();
    expect(error?.issues.map((i) => i.path).sort()).toEqual(["compression.protect_last_n", "compression.tail_mode", "compression.threshold", "context.engine"]);
    expect(error?.message).toMatch(/c\.yaml:2 context\.engine: must match/);
    expect(error?.message).toContain('compression.tail_mode: must be "lean" or "legacy"');
  });

  it("turns unknown keys into warnings and lists unknown sections with their lines for the host, so a Hermes config.yaml loads", async () => {
    const hermes = [
      "model:", "  default: anthropic/claude-sonnet-4", "  provider: openrouter",
      "terminal:", "  backend: local", "display:", "  skin: default",
      "compression:", "  enabled: true", "  threshold: 0.5", "  summary_model: gpt-4o-mini",
      "  model_thresholds:", '    "glm-5.2": 0.40',
    ].join("\n");
    const config = await loadConfig(hermes);
    expect(config.compression.model_thresholds).toEqual({ "glm-5.2": 0.4 });
    expect(config.warnings).toEqual(["<inline config>:11: unknown key compression.summary_model (ignored)"]);
    // a plugin may own a top-level section: the host warns about those no loaded plugin declares
    expect(config.unknownSections).toEqual([
      { name: "terminal", where: "<inline config>:4" },
      { name: "display", where: "<inline config>:6" },
    ]);
    const host = await createContextHost({ config: hermes });
    expect(host.warnings).toEqual([
      "<inline config>:4: unknown key terminal (no loaded plugin owns it; ignored)",
      "<inline config>:6: unknown key display (no loaded plugin owns it; ignored)",
      "<inline config>:11: unknown key compression.summary_model (ignored)",
    ]);
  });

  it("points at the line of a YAML syntax error", () => {
    expect(() => parseConfigText("compression:\n  threshold: [0.5\n", "bad.yaml")).toThrow(/bad\.yaml:\d+/);
  });

  it("tells to quote a scoped package name in plugins:, which YAML cannot read bare", () => {
    expect(() => parseConfigText("plugins:\n  - @context-engine/lcm\n", "c.yaml")).toThrow(/c\.yaml:2 \(root\): Plain value cannot start with reserved character @ .*— quote the value, e\.g\. "@context-engine\/lcm"/);
    expect(parseConfigText('plugins:\n  - "@context-engine/lcm"\n', "c.yaml").plugins).toEqual(["@context-engine/lcm"]);
  });

  it("says a missing file is missing", async () => {
    await expect(loadConfig("/nonexistent/config.yaml")).rejects.toThrow("config file not found: /nonexistent/config.yaml");
  });

  it("says only that a missing file is missing, with no 'Invalid configuration' framing", async () => {
    await expect(loadConfig("/nonexistent/config.yaml")).rejects.toThrow(/^config file not found: \/nonexistent\/config\.yaml$/);
  });

  it("says a folder given as the config file is a folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ce-config-dir-"));
    await expect(loadConfig(dir)).rejects.toThrow(`config file expected, got a folder: ${dir}`);
  });

  it("reads a section left empty (every key commented out) as all defaults", () => {
    const config = parseConfigText("context:\ncompression:\n  # threshold: 0.4\nauxiliary:\n  compression:\nprompt_caching:\nmodel:\nprices:\n", "c.yaml");
    expect([config.context.engine, config.compression.threshold, config.auxiliary.compression.provider, config.prompt_caching.cache_ttl, config.model, config.prices]).toEqual(["compressor", 0.5, "auto", "5m", undefined, {}]);
    expect(config.warnings).toEqual([]);
  });

  it("loads a Hermes plugins: map of per-plugin settings with a warning, loading no plugins", () => {
    const config = parseConfigText("model: claude-sonnet-4\nplugins:\n  hermes-memory-store:\n    db_path: /x.db\n  disabled: []\n", "hermes.yaml");
    expect(config.plugins).toEqual([]);
    expect(config.warnings).toEqual(["hermes.yaml:2: plugins is a map of per-plugin settings (Hermes style), not a list of modules to load; no plugins are loaded from it"]);
    expect(() => parseConfigText("plugins: ./one.ts\n", "c.yaml")).toThrow("c.yaml:1 plugins: must be a list of module specifiers or paths");
  });

  it("names the expected shape when a section is not a map", () => {
    expect(() => parseConfigText("compression: 5\n", "c.yaml")).toThrow("c.yaml:1 compression: must be a map of compression settings (e.g. threshold: 0.5), or left empty for the defaults");
    expect(() => parseConfigText("auxiliary:\n  compression: fast\n", "c.yaml")).toThrow("c.yaml:2 auxiliary.compression: must be a map of auxiliary.compression settings");
    expect(() => parseConfigText("prompt_caching: [1]\n", "c.yaml")).toThrow("c.yaml:1 prompt_caching: must be a map of prompt_caching settings");
  });

  it("sets a key in YAML text and keeps the comments around it", () => {
    const text = "# my settings\ncompression:\n  threshold: 0.5 # trigger\n";
    const updated = setConfigValue(text, "compression.codex_gpt55_autoraise", false);
    expect(updated).toContain("# my settings");
    expect(updated).toContain("# trigger");
    const config = parseConfigText(updated, "x");
    // an old spelling is written under its new key, so the file loads without a deprecation warning
    expect([config.codex.gpt55_autoraise, config.warnings]).toEqual([false, []]);
  });
});

describe("price and cache-length tables in config", () => {
  it("accepts user prices and minimum cacheable lengths by model substring", () => {
    const config = parseConfigText("prices:\n  my-model:\n    input: 2\n    output: 8\nprompt_caching:\n  minimum_cacheable_tokens:\n    my-model: 2048\n", "c.yaml");
    expect(config.prices).toEqual({ "my-model": { input: 2, output: 8 } });
    expect(config.prompt_caching.minimum_cacheable_tokens).toEqual({ "my-model": 2048 });
    expect(config.warnings).toEqual([]);
  });

  it("names the key path of a negative price", () => {
    expect(() => parseConfigText("prices:\n  m:\n    input: -1\n    output: 1\n", "c.yaml")).toThrow("c.yaml:3 prices.m.input: must be 0 or more (USD per million tokens)");
  });
});
