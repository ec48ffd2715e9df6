/**
 * The one config rule of the CLI and the host built from the common flags `--config`, `--root`,
 * `--engine` and `--strict`: `--config <file>`, else `./config.yaml` when present, else the defaults;
 * directory engines and relative paths resolve from that file's folder (`--root` overrides).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, ENGINE_NAME_PATTERN, createContextHost, loadConfig, validateConfigObject, type ContextHost, type HostConfig, type Summarizer } from "@context-engine/core";
import { hostRootDir } from "@context-engine/core/internal";
import { UsageError } from "./errors.js";
import type { CompressionTiming } from "./timingFlag.js";

/** The flags shared by commands that need a host. */
export interface HostFlags {
  config?: string | undefined;
  root?: string | undefined;
  engine?: string | undefined;
  strict?: boolean | undefined;
}

/** The config file the CLI reads in `cwd`: the `--config` path (which must exist), else `./config.yaml` when present. */
export function configFile(cwd: string, flag: string | undefined): string | undefined {
  if (flag !== undefined) return resolve(cwd, flag);
  const local = resolve(cwd, "config.yaml");
  return existsSync(local) ? local : undefined;
}

/** The configuration of {@link configFile}, or the defaults when there is no file. */
export async function configFromFlags(cwd: string, flags: Pick<HostFlags, "config">): Promise<HostConfig> {
  const file = configFile(cwd, flags.config);
  return file ? loadConfig(file) : validateConfigObject({});
}

/** The folder directory engines are looked up in: `--root`, else the config file's folder, else `cwd`. */
export function rootDirFromFlags(cwd: string, flags: Pick<HostFlags, "root">, config: HostConfig): string {
  return flags.root !== undefined ? resolve(cwd, flags.root) : hostRootDir(config, cwd);
}

/**
 * Builds the host the flags describe; `--engine` overrides `context.engine`, `--strict` turns fallbacks into
 * errors. With `scratch`, engines keep no state beyond the host (simulations use scratch stores);
 * `wrapSummarizer` wraps the summarizer before the engine gets it, given the config (a replay meters it); `validateOutput: false`
 * hands out the engine's own `compress` (a command that shows and checks the output itself).
 */
export async function hostFromFlags(cwd: string, flags: HostFlags, announce?: (line: string) => void, options: { scratch?: boolean; timing?: CompressionTiming | undefined; wrapSummarizer?: (summarizer: Summarizer, config: HostConfig) => Summarizer; validateOutput?: false } = {}): Promise<ContextHost> {
  if (flags.engine !== undefined && flags.engine.trim() !== "" && !ENGINE_NAME_PATTERN.test(flags.engine.trim())) {
    throw new UsageError(`--engine must be an engine name matching ${ENGINE_NAME_PATTERN.source}, got '${flags.engine}'`);
  }
  const config = await configFromFlags(cwd, flags);
  if (flags.engine !== undefined) config.context = { ...config.context, engine: flags.engine };
  if (options.validateOutput === false) config.context = { ...config.context, validate_output: false };
  if (options.timing !== undefined) config.compression = { ...config.compression, timing: options.timing };
  const host = await createContextHost({ config, rootDir: rootDirFromFlags(cwd, flags, config), ...(flags.strict ? { strict: true } : {}), ...(options.scratch ? { scratch: true } : {}), ...(options.wrapSummarizer ? { wrapSummarizer: (summarizer: Summarizer) => options.wrapSummarizer!(summarizer, config) } : {}) }).catch((error: unknown) => {
    throw flags.engine !== undefined ? blameEngineFlag(error, flags.engine) : error;
  });
  for (const notice of host.notices) announce?.(notice);
  return host;
}

/** A strict-mode error about `context.engine` when the name came from `--engine`: it names the flag, not the file. */
function blameEngineFlag(error: unknown, engine: string): unknown {
  const issue = error instanceof ConfigError && error.issues.length === 1 ? error.issues[0]! : undefined;
  return issue?.path === "context.engine" ? new ConfigError([issue], "--engine", `--engine ${engine}: ${issue.message}`) : error;
}

/** parseArgs options for {@link HostFlags}, declared with their help text in commandFlags.ts. */
export { HOST_FLAG_OPTIONS } from "./commandFlags.js";
