/**
 * What the host checks of the engine it hands out (docs/BEHAVIOUR.md, "Invalid output" and "Contract
 * version"): every `compress()` output against the provider rules, and the contract version it states.
 */
import { readFileSync } from "node:fs";
import type { ContextEngine } from "../engine/ContextEngine.js";
import { packageFileUrl } from "../packageFile.js";
import { ENGINE_API_VERSION, engineApiVersion } from "../engine/apiVersion.js";
import { InvalidEngineOutputError, invalidEngineOutput } from "../engine/invalidOutput.js";
import type { ChatMessage } from "../messages/schema.js";
import type { CompressOptions } from "../engine/types.js";

/** The engine's own `compress`, kept on an engine whose `compress` the host checks. */
const UNCHECKED_COMPRESS = Symbol.for("@context-engine/core.uncheckedCompress");

type Compress = (messages: ChatMessage[], options?: CompressOptions) => Promise<ChatMessage[]>;

/**
 * Makes `engine.compress` throw an {@link InvalidEngineOutputError} for an output that breaks provider
 * rules the input did not break (the caller's list is left as it was), or with `check` false gives it its
 * own `compress` back. The engine stays the same object: `instanceof`, its identity and its private
 * fields are untouched; the checked `compress` is an own property of the instance.
 */
export function checkEngineOutput(engine: ContextEngine, check: boolean): void {
  const holder = engine as unknown as Record<PropertyKey, unknown>;
  const own = holder[UNCHECKED_COMPRESS] as Compress | undefined;
  if (own !== undefined) {
    // checked already (an instance a plugin registered, handed out by another host): start from its own compress
    delete holder[UNCHECKED_COMPRESS];
    Object.defineProperty(engine, "compress", { value: own, writable: true, configurable: true, enumerable: false });
    if (Object.getPrototypeOf(engine)?.compress === own) delete holder.compress;
  }
  if (!check) return;
  const compress: Compress = engine.compress;
  const checked: Compress = async (messages, options) => {
    const output = await compress.call(engine, messages, options);
    const invalid = invalidEngineOutput(engine.name, messages, output);
    if (invalid !== undefined) throw new InvalidEngineOutputError(engine.name, invalid);
    return output;
  };
  Object.defineProperty(engine, UNCHECKED_COMPRESS, { value: compress, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(engine, "compress", { value: checked, writable: true, configurable: true, enumerable: false });
}

/**
 * The warning for an engine built for a newer contract than this host knows, or one whose `apiVersion`
 * is not a positive whole number; undefined when the host knows its version. `what` names the engine
 * and where it came from.
 */
export function apiVersionWarning(engine: object, what: string, coreVersion: string): string | undefined {
  const { version, invalid } = engineApiVersion(engine);
  if (invalid !== undefined) return `${what} states apiVersion ${JSON.stringify(invalid) ?? String(invalid)}, not a positive whole number; it is taken as contract version 1`;
  if (version <= ENGINE_API_VERSION) return undefined;
  return (
    `${what} was built for engine contract version ${version}, but this host's @context-engine/core ${coreVersion} knows version ${ENGINE_API_VERSION}: ` +
    `upgrade @context-engine/core to a version supporting contract ${version} (the engine may call what this host does not have)`
  );
}

let coreVersion: string | undefined;

/** The version of this `@context-engine/core` (its package.json), for the contract warning. */
export function hostCoreVersion(): string {
  coreVersion ??= String((JSON.parse(readFileSync(packageFileUrl("package.json"), "utf8")) as { version?: unknown }).version ?? "(unknown version)");
  return coreVersion;
}
