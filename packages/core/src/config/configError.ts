/** The error every configuration problem is reported with (config files, plugin manifests, `config set` values). */

/** One configuration problem, located. */
export interface ConfigIssue {
  path: string;
  message: string;
  line?: number;
}

/** Thrown when configuration is invalid; the message lists `file:line key.path: problem` for each issue. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  readonly source: string;
  /** `message` replaces the generated "Invalid configuration" text (e.g. for a missing file). */
  constructor(issues: ConfigIssue[], source: string, message?: string) {
    const lines = issues.map((i) => `  ${source}${i.line ? `:${i.line}` : ""} ${i.path || "(root)"}: ${i.message}`);
    super(message ?? `Invalid configuration (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "ConfigError";
    this.issues = issues;
    this.source = source;
  }
}
