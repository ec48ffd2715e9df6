/** Builds a host from the common flags `--config`, `--root` and `--engine`. */
import { resolve } from "node:path";
import { ENGINE_NAME_PATTERN, createContextHost, loadConfig, validateConfigObject, type ContextHost } from "@context-engine/core";
import { UsageError } from "./errors.js";

/** The flags shared by commands that need a host. */
export interface HostFlags {
  config?: string | undefined;
  root?: string | undefined;
  engine?: string | undefined;
}

/** `--config` file (or defaults), `--engine` overriding `context.engine`, plugins looked up under `--root`. */
export async function hostFromFlags(cwd: string, flags: HostFlags, announce?: (line: string) => void): Promise<ContextHost> {
  if (flags.engine !== undefined && flags.engine.trim() !== "" && !ENGINE_NAME_PATTERN.test(flags.engine.trim())) {
    throw new UsageError(`--engine must be an engine name matching ${ENGINE_NAME_PATTERN.source}, got '${flags.engine}'`);
  }
  const config = flags.config ? await loadConfig(resolve(cwd, flags.config)) : validateConfigObject({});
  if (flags.engine !== undefined) config.context = { ...config.context, engine: flags.engine };
  const host = await createContextHost({ config, rootDir: resolve(cwd, flags.root ?? ".") });
  for (const notice of host.notices) announce?.(notice);
  return host;
}

/** parseArgs options for {@link HostFlags}, declared with their help text in commandFlags.ts. */
export { HOST_FLAG_OPTIONS } from "./commandFlags.js";
