/** Values built on first use: a zod schema that only some calls need costs a fresh process nothing at import. */

/** A function that builds its value with `make` on its first call and returns that same value from then on. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
