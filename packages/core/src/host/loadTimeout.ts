/**
 * The bound on plugin code while a host starts: importing a module, its `register(ctx)`, and building
 * its engine each get `plugin_load_timeout` seconds, so a plugin that never settles cannot hang
 * `createContextHost`. What it does after the deadline is ignored.
 */

/** Plugin code that did not settle within the load timeout. */
export class PluginLoadTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`did not finish ${what} within ${timeoutMs / 1000} s (plugin_load_timeout)`);
    this.name = "PluginLoadTimeoutError";
  }
}

/**
 * `work`, or a {@link PluginLoadTimeoutError} ("did not finish <what> within N s") when it has not
 * settled after `timeoutMs`. The timer never keeps the process alive.
 */
export function withinLoadTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PluginLoadTimeoutError(what, timeoutMs)), timeoutMs);
    timer.unref();
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
