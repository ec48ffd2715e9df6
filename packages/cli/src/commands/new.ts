/**
 * `context-engine new engine <name>`: writes the scaffold of a directory engine into
 * `plugins/context_engine/<name>/` beside the config the CLI finds (`--config`, else ./config.yaml; `--root`
 * overrides) — never over an existing folder.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { BUILTIN_ENGINE, ENGINE_NAME_PATTERN, HostConfigSchema } from "@context-engine/core";
import { parseCommandArgs } from "../args.js";
import { NEW_FLAGS } from "../commandFlags.js";
import { EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { configFile } from "../hostFlags.js";
import { engineScaffold } from "../scaffold/engineTemplate.js";

/** Why `name` cannot name a new engine (the rule it breaks), or undefined when it can. */
export function engineNameProblem(name: string): string | undefined {
  if (!ENGINE_NAME_PATTERN.test(name)) return `engine name '${name}' must match ${ENGINE_NAME_PATTERN.source}: lowercase letters, digits, '_' and '-', starting with a letter or digit, at most 64 characters`;
  if (name === BUILTIN_ENGINE) return `engine name '${name}' always means the built-in compressor; choose another name`;
  if (Object.hasOwn(HostConfigSchema.shape, name)) return `engine name '${name}' is a section of the host's config (its settings would go under ${name}:); choose another name`;
  return undefined;
}

/** Runs `new`. */
export async function runNew(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, NEW_FLAGS);
  const [kind, name, ...extra] = positionals;
  if (kind !== "engine" || name === undefined || extra.length > 0) throw new UsageError("expects `engine <name>`");
  const problem = engineNameProblem(name);
  if (problem) throw new UsageError(problem);
  const config = configFile(io.cwd, values.config);
  if (values.config !== undefined && !existsSync(config!)) throw new Error(`config file not found: ${config}`);
  const rootDir = values.root !== undefined ? resolve(io.cwd, values.root) : config ? dirname(config) : io.cwd;
  const dir = join(rootDir, "plugins", "context_engine", name);
  if (existsSync(dir)) throw new Error(`${dir} already exists; nothing was written (choose another name, or remove the folder)`);
  await mkdir(dir, { recursive: true });
  const files = engineScaffold(name);
  for (const file of files) await writeFile(join(dir, file.name), file.text, { flag: "wx" });
  const shown = relative(io.cwd, dir) || ".";
  io.stdout(
    [
      `wrote ${dir}/`,
      ...files.map((f) => `  ${f.name}`),
      "",
      "next:",
      `  context-engine conformance ${name}${values.config !== undefined ? ` --config ${values.config}` : ""}`,
      `  context-engine config set ${name}.keep_last 5${values.config !== undefined ? ` --config ${values.config}` : ""}`,
      `  node --test ${shown}/`,
      `  select it with context: { engine: ${name} } in config.yaml`,
    ].join("\n"),
  );
  return EXIT_OK;
}
