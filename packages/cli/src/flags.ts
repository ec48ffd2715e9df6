/**
 * A command's flags, declared once: node:util parseArgs reads the same objects the `--help` text is
 * printed from, so a flag cannot exist without its one-line description. No @context-engine/core
 * import here: `--help` stays fast.
 */

/** One flag: its parseArgs settings plus what `--help` prints for it. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly default?: string | boolean;
  /** The value's placeholder in `--help` (`file`, `N`); string flags only. */
  readonly value?: string;
  /** One line for `--help`. */
  readonly description: string;
  /** The default as `--help` shows it when it is not a parseArgs `default` (a behaviour of the command). */
  readonly defaultText?: string;
}

/** A command's flags by long name. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** Declares a command's flags, keeping their literal types for parseArgs' typed `values`. */
export function defineFlags<const F extends FlagSpecs>(flags: F): F {
  return flags;
}

/** The `Options:` block of `--help`: one line per flag (aliases, placeholder, description, default) and `--help`. */
export function flagHelp(flags: FlagSpecs): string {
  const rows = Object.entries(flags).map(([name, flag]) => {
    const alias = flag.short ? `-${flag.short}, ` : "    ";
    const value = flag.type === "string" ? ` <${flag.value ?? "value"}>` : "";
    const fallback = flag.defaultText ?? (flag.default === undefined ? undefined : String(flag.default));
    return [`${alias}--${name}${value}`, `${flag.description}${fallback === undefined ? "" : ` (default: ${fallback})`}`] as const;
  });
  rows.push(["-h, --help", "show this help"]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return ["Options:", ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)].join("\n");
}
