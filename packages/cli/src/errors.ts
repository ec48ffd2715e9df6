/** CLI error types and exit codes: 0 ok, 1 failure, 2 usage error. */

/** Exit code of a successful run. */
export const EXIT_OK = 0;
/** Exit code when the work failed (bad input file, engine error). */
export const EXIT_FAILURE = 1;
/** Exit code for a wrong command line. */
export const EXIT_USAGE = 2;

/** A wrong command line: printed on one line with a hint to `<command> --help`, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
