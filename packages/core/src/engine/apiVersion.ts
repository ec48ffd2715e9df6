/**
 * The engine contract's version (docs/BEHAVIOUR.md, "Contract version"): an engine class states the
 * version it was built for as `static apiVersion = 1`; the host warns about one newer than it knows.
 */

/** The contract version this `@context-engine/core` implements; an engine built for it says `static apiVersion = 1`. */
export const ENGINE_API_VERSION = 1;

/** What an engine states about its contract version: `apiVersion`, a positive whole number. */
export interface ApiVersionStatement {
  /** The version read (1 when the engine states none or states it wrongly). */
  version: number;
  /** Set when the engine states something that is not a positive whole number. */
  invalid?: unknown;
}

/**
 * The contract version `engine` was built for: its class's own `static apiVersion` (or the nearest
 * subclass's on its prototype chain, never inherited from `ContextEngine`, which declares none), else an
 * `apiVersion` on the instance; an engine that states none is taken as version 1.
 */
export function engineApiVersion(engine: object): ApiVersionStatement {
  const own = (engine as { apiVersion?: unknown }).apiVersion;
  const stated = own !== undefined ? own : (engine.constructor as { apiVersion?: unknown } | undefined)?.apiVersion;
  if (stated === undefined) return { version: 1 };
  if (typeof stated === "number" && Number.isInteger(stated) && stated >= 1) return { version: stated };
  return { version: 1, invalid: stated };
}
