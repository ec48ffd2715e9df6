/** Session id patterns (`lcm.ignore_sessions`): `*` any run of characters, `?` one character, the rest literal. */

/** The regex of one glob, matching a whole session id. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob].map((c) => (c === "*" ? "[\\s\\S]*" : c === "?" ? "[\\s\\S]" : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "u");
}

/** A test for session ids matching any of `globs`. */
export function sessionMatcher(globs: readonly string[]): (session: string) => boolean {
  const patterns = globs.map(globToRegExp);
  return (session) => patterns.some((p) => p.test(session));
}
