/**
 * The engine registry behind `ctx.registerContextEngine`: names registrations, refuses duplicates with a
 * warning (the first wins), and taps the host's `contextEngine` hook so only the configured name is built.
 */
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import { ENGINE_NAME_PATTERN } from "../config/schema.js";
import type { HostHooks } from "./hooks.js";
import { BUILTIN_ENGINE } from "./builtin.js";
import type { EngineRegistration } from "./types.js";
import type { EngineContext } from "./hooks.js";

/** True when `value` is a class (as opposed to a plain factory function). */
function isClass(value: unknown): value is new (ctx: EngineContext) => unknown {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/** Builds an engine from a registration (instance, class, or factory) and checks its shape. */
export async function buildEngine(registration: EngineRegistration | unknown, ctx: EngineContext, what: string): Promise<ContextEngine> {
  let engine: unknown;
  if (isContextEngine(registration)) engine = registration;
  else if (isClass(registration)) engine = new registration(ctx);
  else if (typeof registration === "function") engine = await (registration as (c: EngineContext) => unknown)(ctx);
  else throw new Error(`${what} is not a context engine, an engine class or a factory`);
  if (!isContextEngine(engine)) throw new Error(`${what} did not produce a context engine (it needs name, shouldCompress, compress and updateFromResponse)`);
  const missing = ENGINE_METHODS.filter((m) => typeof (engine as unknown as Record<string, unknown>)[m] !== "function");
  if (missing.length > 0) throw new Error(`${what} lacks ${missing.join(", ")} — extend ContextEngine from @context-engine/core`);
  return engine;
}

/** Every method of the engine contract the host and its callers use (docs/API.md, `ContextEngine`). */
export const ENGINE_METHODS = [
  "shouldCompress", "compress", "updateFromResponse", "updateModel", "getToolSchemas", "handleToolCall",
  "getStatus", "onSessionStart", "onSessionEnd", "onSessionReset",
] as const;

/** Registrations of one host, keyed by engine name. */
export class EngineRegistry {
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly hooks: HostHooks,
    private readonly engineContext: EngineContext,
  ) {}

  /** The plugin that registered `name`, if any. */
  ownerOf(name: string): string | undefined {
    return this.owners.get(name);
  }

  /** Every registered name. */
  names(): string[] {
    return [...this.owners.keys()];
  }

  /**
   * Registers `registration` for `owner` (a plugin id). A factory or class without an explicit name is
   * built once to learn its name; that instance is the one used if the name is chosen. The engine's
   * context carries `settings`, the owner's own config section parsed (`ctx.settings`).
   */
  async register(owner: string, registration: EngineRegistration, name?: string, settings?: unknown): Promise<void> {
    let prebuilt: ContextEngine | undefined;
    const withSettings = (ctx: EngineContext): EngineContext => (settings === undefined ? ctx : { ...ctx, settings });
    let engineName = name ?? (isContextEngine(registration) ? registration.name : staticName(registration));
    if (!engineName) {
      prebuilt = await buildEngine(registration, withSettings(this.engineContext), `the engine registered by ${owner}`);
      engineName = prebuilt.name;
    }
    if (!ENGINE_NAME_PATTERN.test(engineName)) {
      throw new Error(`${owner} registered an engine named '${engineName}', which does not match ^[a-z0-9][a-z0-9_-]{0,63}$`);
    }
    if (engineName === BUILTIN_ENGINE) {
      throw new Error(`'${BUILTIN_ENGINE}' always means the built-in compressor; register the engine under its own name`);
    }
    const first = this.owners.get(engineName);
    if (first) {
      this.engineContext.warn(`Context engine '${engineName}' is offered by both ${first} and ${owner} — using ${first}`);
      return;
    }
    this.owners.set(engineName, owner);
    const wanted = engineName;
    this.hooks.contextEngine.tapPromise(owner, async (asked, ctx) => {
      if (asked !== wanted) return undefined;
      return prebuilt ?? buildEngine(registration, withSettings(ctx), `the engine '${wanted}' of ${owner}`);
    });
  }
}

/** A class or factory may declare its name as a static `engineName` property. */
function staticName(registration: unknown): string | undefined {
  if (typeof registration !== "function") return undefined;
  const n = (registration as { engineName?: unknown }).engineName;
  return typeof n === "string" ? n : undefined;
}
