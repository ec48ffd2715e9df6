/**
 * lcm's store at a URL (config `lcm.database_url`): opened by the store driver another plugin offers
 * through the host's `storeDriver` hook (`@context-engine/postgres` listed in `plugins:` answers for
 * `postgres://` URLs). lcm names no driver package in its code or its dependencies.
 */
import type { HostHooks } from "./core.js";
import { LcmConfigError } from "./config.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** The store kind lcm asks the drivers for. */
export const LCM_STORE_KIND = "lcm";

/** The package that offers a driver for `postgres://` URLs, named in the error when none answers. */
export const POSTGRES_DRIVER_PACKAGE = "@context-engine/postgres";

/** The part of the host's hooks lcm uses to open a store by URL. */
export type LcmStoreHooks = Pick<HostHooks, "storeDriver">;

/**
 * Opens the lcm store at `url` through the first driver that answers; the engine that gets it owns it.
 * No hooks, or no driver for the URL, is an {@link LcmConfigError} naming `lcm.database_url` and the
 * plugin to list.
 */
export async function openLcmStoreAt(url: string, hooks: LcmStoreHooks | undefined): Promise<LcmStoreAsync> {
  const store = await hooks?.storeDriver.promise({ kind: LCM_STORE_KIND, url });
  if (store === undefined || store === null) {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? url;
    throw new LcmConfigError([`lcm.database_url: no store driver opens ${scheme}// URLs: add "${POSTGRES_DRIVER_PACKAGE}" to plugins: (npm install ${POSTGRES_DRIVER_PACKAGE})`]);
  }
  return store as LcmStoreAsync;
}
