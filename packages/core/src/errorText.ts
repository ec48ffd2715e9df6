/** The first line of an error's message (or the thrown value as text), for one-line warnings and errors. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}
