/**
 * The built-in route extensions, and the route hooks code uses when no host hands it any (an engine,
 * a session or a price lookup built in code behaves as under a host with default settings).
 */
import { codexRoute } from "../codex/route.js";
import { createRouteHooks, type RouteConfig, type RouteExtension, type RouteHooks } from "../host/hooks.js";

/** The routes every host installs: the Codex and Responses API routes. */
export const BUILTIN_ROUTES: readonly RouteExtension[] = [codexRoute];

/** Taps `hooks` with every built-in route, each reading its settings from `config`. */
export function installBuiltinRoutes(hooks: RouteHooks, config: RouteConfig): void {
  for (const route of BUILTIN_ROUTES) route.install(hooks, config);
}

/** Fresh route hooks with the built-in routes installed, their settings read from `config` (default: all defaults). */
export function builtinRouteHooks(config: RouteConfig = {}): RouteHooks {
  const hooks = createRouteHooks();
  installBuiltinRoutes(hooks, config);
  return hooks;
}

let shared: RouteHooks | undefined;

/** The built-in routes with default settings, shared (for lookups such as prices that take no config). */
export function defaultRouteHooks(): RouteHooks {
  shared ??= builtinRouteHooks();
  return shared;
}
