/**
 * What goes wrong while a host starts. Normally every problem is a warning and the host still starts;
 * in strict mode the problems that would change what runs (an engine that is not found or fails, a plugin
 * that fails to load) are collected as located config issues and thrown together as one {@link ConfigError}.
 */
import { ConfigError, locateConfigKey, type ConfigIssue } from "../config/load.js";

/** The warnings and strict-mode issues of one host being created. */
export class HostProblems {
  private readonly issues: ConfigIssue[] = [];

  /**
   * @param warnings the list `host.warnings` becomes (appended to)
   * @param strict whether {@link fail} records an error instead of a warning
   * @param sourcePath the config file, to locate issues by line
   */
  constructor(
    readonly warnings: string[],
    readonly strict: boolean,
    private readonly sourcePath: string | undefined,
  ) {}

  /** Adds a warning that never stops the host. */
  readonly warn = (message: string): void => void this.warnings.push(message);

  /**
   * A problem strict mode refuses: under strict, an issue at `keyPath` (only the first per key, the root
   * cause) located at the line where the file holds `value`; otherwise the warning `warning`.
   */
  fail(keyPath: (string | number)[], value: string, message: string, warning: string): void {
    if (!this.strict) return this.warn(warning);
    const path = keyPath.join(".");
    if (this.issues.some((i) => i.path === path)) return;
    const line = this.sourcePath ? locateConfigKey(this.sourcePath, keyPath, value) : undefined;
    this.issues.push({ path, message, ...(line ? { line } : {}) });
  }

  /** Throws the collected strict-mode issues as one ConfigError, if there are any. */
  throwIfAny(): void {
    if (this.issues.length > 0) throw new ConfigError(this.issues, this.sourcePath ?? "<config object>");
  }
}
