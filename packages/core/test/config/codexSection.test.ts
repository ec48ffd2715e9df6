import { describe, expect, it } from "vitest";
import { ConfigError, parseConfigText, validateConfigObject } from "../../src/config/load.js";
import { unknownConfigKeyMessage } from "../../src/config/keys.js";

describe("the codex: config section", () => {
  it("reads the Codex route settings from their own section, without warnings", () => {
    const config = parseConfigText("codex:\n  gpt55_autoraise: false\n  app_server_auto: hermes\n  responses_native: true\n", "c.yaml");
    expect(config.codex).toEqual({ gpt55_autoraise: false, gpt55_autoraise_notice: true, app_server_auto: "hermes", responses_native: true, responses_compact_threshold: 200_000 });
    expect(config.warnings).toEqual([]);
  });

  it("still reads the old compression.codex_* keys, warning at each one's line with the key to use instead", () => {
    const text = "compression:\n  threshold: 0.5\n  codex_gpt55_autoraise: false\n  codex_responses_compact_threshold: 150000\n";
    const config = parseConfigText(text, "c.yaml");
    expect(config.codex).toMatchObject({ gpt55_autoraise: false, responses_compact_threshold: 150_000 });
    expect(config.compression.codex_gpt55_autoraise).toBe(false);
    expect(config.warnings).toEqual([
      "c.yaml:3: compression.codex_gpt55_autoraise is deprecated; use codex.gpt55_autoraise",
      "c.yaml:4: compression.codex_responses_compact_threshold is deprecated; use codex.responses_compact_threshold",
    ]);
  });

  it("lets the new key win when both spellings are set, and says so", () => {
    const config = parseConfigText("compression:\n  codex_app_server_auto: off\ncodex:\n  app_server_auto: hermes\n", "c.yaml");
    expect(config.codex.app_server_auto).toBe("hermes");
    expect(config.warnings).toEqual(["c.yaml:2: compression.codex_app_server_auto is deprecated; use codex.app_server_auto (codex.app_server_auto is set too and wins)"]);
  });

  it("reports a wrong value under the spelling and line it was written with, once", () => {
    const error = (() => { try { parseConfigText("compression:\n  codex_app_server_auto: sometimes\n", "c.yaml"); } catch (e) { return e as ConfigError; } })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.issues.map((i) => i.path)).toEqual(["compression.codex_app_server_auto"]);
    expect(error?.message).toContain('c.yaml:2 compression.codex_app_server_auto: must be "native", "hermes" or "off"');
    expect(() => parseConfigText("codex:\n  responses_compact_threshold: -5\n", "c.yaml")).toThrow("c.yaml:2 codex.responses_compact_threshold: must be positive (input tokens)");
  });

  it("maps the old keys of a config object given in code too", () => {
    const config = validateConfigObject({ compression: { codex_gpt55_autoraise_notice: false } });
    expect(config.codex.gpt55_autoraise_notice).toBe(false);
    expect(config.warnings).toEqual(["<config object>: compression.codex_gpt55_autoraise_notice is deprecated; use codex.gpt55_autoraise_notice"]);
  });

  it("knows the new keys and the old ones for `config set`", () => {
    for (const key of ["codex.gpt55_autoraise", "codex.responses_compact_threshold", "compression.codex_gpt55_autoraise"]) expect(unknownConfigKeyMessage(key), key).toBeUndefined();
    expect(unknownConfigKeyMessage("codex.gpt55_autoraize")).toBe("codex.gpt55_autoraize is not a configuration key — did you mean codex.gpt55_autoraise?");
  });
});
