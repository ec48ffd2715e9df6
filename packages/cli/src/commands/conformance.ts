/** `context-engine conformance <engine name | plugin path>`: runs the conformance suite and prints a checklist. */
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { ENGINE_NAME_PATTERN, createContextHost, type ContextEngine, type HostConfig } from "@context-engine/core";
import { runConformance } from "@context-engine/core/conformance";
import { parseCommandArgs } from "../args.js";
import { CONFORMANCE_FLAGS } from "../commandFlags.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { configFromFlags, rootDirFromFlags } from "../hostFlags.js";

/** Runs `conformance`. */
export async function runConformanceCommand(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, CONFORMANCE_FLAGS);
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new UsageError("expects one engine name or plugin path");
  const config = await configFromFlags(io.cwd, values);
  const base = values.strict ? { ...config, strict: true } : config;
  const factory = await engineFactory(target, rootDirFromFlags(io.cwd, values, base), io.cwd, base, values.name);
  // an engine that does not load is said once, where it failed, and no check runs
  if (typeof factory === "string") {
    io.stderr(`context-engine conformance: ${factory}`);
    return EXIT_FAILURE;
  }
  const report = await runConformance(factory);
  const lines = report.checks.map((c) => `${c.ok ? "✓" : "✗"} ${c.name}${c.detail ? `\n    ${c.detail}` : ""}`);
  io.stdout([`conformance of '${report.engine}'`, ...lines, "", `${report.passed} passed, ${report.failed} failed`].join("\n"));
  return report.failed === 0 ? EXIT_OK : EXIT_FAILURE;
}

/**
 * A factory for the engine `target` names: a path to a plugin module or directory, or an engine name
 * resolved as a host would; or, when that engine does not load, why (once, without the host's fallback).
 */
async function engineFactory(target: string, rootDir: string, cwd: string, base: HostConfig, name?: string): Promise<(() => Promise<ContextEngine>) | string> {
  const path = resolve(cwd, target);
  const looksLikePath = /[/\\]/.test(target) || /\.[cm]?[jt]s$/.test(target) || target.startsWith(".");
  if (looksLikePath && !existsSync(path)) throw new Error(`plugin not found: ${path}`);
  const isPath = existsSync(path) && looksLikePath;
  // the suite checks every output itself and names the check it fails: the host's own check is off
  const withConfig = (overrides: Omit<Partial<HostConfig>, "context"> & { context?: { engine: string } }): HostConfig => ({ ...base, ...overrides, context: { ...base.context, ...overrides.context, validate_output: false } });
  if (!isPath) {
    if (!ENGINE_NAME_PATTERN.test(target)) throw new UsageError(`'${target}' is neither an engine name (${ENGINE_NAME_PATTERN.source}) nor a plugin path`);
    const config = withConfig({ context: { engine: target } });
    const probe = await createContextHost({ config, rootDir });
    if (probe.engine.name !== target && !(target === "compressor" && probe.engineSource === "builtin")) {
      return probe.engineFailure ?? (probe.warnings.join("\n") || `engine '${target}' did not resolve`);
    }
    return async () => (await createContextHost({ config, rootDir })).engine;
  }
  const pluginDir = statSync(path).isDirectory() && basename(resolve(path, "..")) === "context_engine";
  if (pluginDir) {
    const engineName = basename(path);
    const dirRoot = resolve(path, "../../..");
    const config = withConfig({ context: { engine: engineName } });
    const probe = await createContextHost({ config, rootDir: dirRoot });
    if (probe.engineSource !== "directory") return probe.engineFailure ?? `engine '${engineName}' did not load from ${path}`;
    return async () => {
      const host = await createContextHost({ config, rootDir: dirRoot });
      if (host.engineSource !== "directory") throw new Error(host.warnings.join("; "));
      return host.engine;
    };
  }
  // A plugin keeps its state under the host's root: give the suite a scratch folder, not the project.
  const scratch = mkdtempSync(join(tmpdir(), "context-engine-conformance-"));
  const probe = await createContextHost({ config: withConfig({ plugins: [path] }), rootDir: scratch });
  const chosen = name ?? probe.registeredEngines[0];
  if (!chosen) return probe.warnings.filter((w) => w.includes(path)).join("\n") || `${target} registers no context engine`;
  const config = withConfig({ plugins: [path], context: { engine: chosen } });
  return async () => {
    const host = await createContextHost({ config, rootDir: mkdtempSync(join(scratch, "engine-")) });
    if (host.engineSource !== "plugin") throw new Error(host.warnings.join("; "));
    return host.engine;
  };
}
