/**
 * `context-engine sessions import <transcript>`: fills a session store from a transcript in any format
 * `context-engine import` reads, as one new session, so `sessions search` can be tried without code.
 */
import { basename } from "node:path";
import { openSqliteStore } from "@context-engine/core";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { loadTranscript } from "../transcript.js";

/** What `sessions import` takes besides the store path. */
export interface SessionsImportOptions {
  /** The transcript files given (exactly one is accepted). */
  files: string[];
  /** The transcript format, `auto` to detect it. */
  format: string;
  /** The new session's id (default: a random UUID). */
  session?: string | undefined;
  /** The new session's platform (default `import`). */
  platform?: string | undefined;
  /** The new session's scope (default `default`). */
  scope?: string | undefined;
}

/** Imports one transcript into the SQLite store at `dbPath` (created when missing) as a new session; prints what it stored. */
export async function importSession(io: CommandIO, dbPath: string, options: SessionsImportOptions): Promise<number> {
  const [file, ...extra] = options.files;
  if (file === undefined || extra.length > 0) throw new UsageError("import expects exactly one transcript file");
  const transcript = await loadTranscript(io.cwd, file, options.format, true);
  for (const warning of transcript.warnings) io.stderr(`warning: ${warning}`);
  if (transcript.messages.length === 0) {
    io.stderr(`context-engine sessions: ${file} (${transcript.format}) holds no messages; nothing stored`);
    return EXIT_FAILURE;
  }
  const store = openSqliteStore(dbPath);
  try {
    if (options.session !== undefined && store.getSession(options.session) !== undefined) {
      io.stderr(`context-engine sessions: ${dbPath} already holds a session '${options.session}' (pick another --session)`);
      return EXIT_FAILURE;
    }
    const session = store.createSession({ ...(options.session ? { id: options.session } : {}), ...(options.scope ? { scope: options.scope } : {}), platform: options.platform ?? "import", title: basename(file) });
    store.appendMessages(session.id, transcript.messages);
    io.stdout(`${file} (${transcript.format}) → ${dbPath}: session ${session.id}, ${transcript.messages.length} messages`);
    return EXIT_OK;
  } finally {
    store.close();
  }
}
