/** Values built on first use: a zod schema that only some calls need costs a fresh process nothing at import. */

/** A function that builds its value with `make` on its first call and returns that same value from then on. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** `make`'s promise, made on the first call and returned by every later one (made again after a failure): an SDK imported or a client built on first use. */
export function lazyAsync<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
