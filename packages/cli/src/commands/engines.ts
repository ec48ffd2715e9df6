/** `context-engine engines`: which config file was read, which engine resolves, from where, what else is on offer, and warnings. */
import { join } from "node:path";
import { listDirectoryEngines } from "@context-engine/core/internal";
import { parseCommandArgs } from "../args.js";
import type { CommandIO } from "../commandIO.js";
import { EXIT_OK } from "../errors.js";
import { ENGINES_FLAGS } from "../commandFlags.js";
import { formatNumber } from "../format.js";
import { hostFromFlags } from "../hostFlags.js";
import { triggerReason } from "../report/trigger.js";

/** Runs `engines`. */
export async function runEngines(io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs(io.args, ENGINES_FLAGS);
  const host = await hostFromFlags(io.cwd, values, io.stderr);
  const rootDir = host.rootDir;
  const lines = [
    `config:     ${host.config.sourcePath ?? "defaults, no config.yaml"}`,
    `requested:  ${host.requestedEngine} (${requestedFrom(values.engine, host.config.sourcePath)})`,
    `active:     ${host.engine.name} — ${host.engineSource} (${host.engineOrigin})`,
    `model:      ${host.model.model}, ${formatNumber(host.model.contextLength)} tokens, threshold ${formatNumber(host.engine.thresholdTokens)} (${triggerReason(host.engine)})`,
    `summarizer: ${host.summarizer.name ?? "custom"}`,
    `directory engines (${join(rootDir, "plugins", "context_engine")}): ${listDirectoryEngines(rootDir).join(", ") || "none"}`,
    `plugin engines (config plugins:): ${host.registeredEngines.join(", ") || "none"}`,
    `built-in: compressor`,
  ];
  if (host.warnings.length > 0) lines.push("warnings:", ...host.warnings.map((w) => `  - ${w}`));
  io.stdout(lines.join("\n"));
  return EXIT_OK;
}

/** Where the requested name came from: the `--engine` flag, the config file (set or defaulted there), or the default. */
function requestedFrom(flag: string | undefined, sourcePath: string | undefined): string {
  if (flag !== undefined) return "--engine";
  return sourcePath ? `context.engine of ${sourcePath}` : "default, no config.yaml";
}
