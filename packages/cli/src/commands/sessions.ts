/**
 * `context-engine sessions`: the session store from the command line — `list` the sessions (newest
 * first), `search` every stored turn (compacted ones too) with the turns around each hit, `show` one
 * session's active list (`--all`: with its archived turns, `--around`: a window around one message) and the
 * work its workers left pending in the store (a `compact_context` request, a summary prepared in the background),
 * `import` a transcript as a new session.
 */
import { resolve } from "node:path";
import type { SessionStore, StoredMessage } from "@context-engine/core";
import { pendingWorkLine, pendingWorkOf } from "@context-engine/core/session";
import { sessionEnds, sessionSearch } from "@context-engine/core/store";
import { parseCommandArgs, parsePositiveInt } from "../args.js";
import { DEFAULT_SESSION_DB, FORMAT_CHOICES, SESSIONS_FLAGS } from "../commandFlags.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { openExistingSessionStore, scopeFromFlags, searchSourceFor } from "../sessionStoreFlags.js";
import { importSession } from "./sessionsImport.js";

const SUBCOMMANDS = ["list", "search", "show", "import"] as const;

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").slice(0, 16);
}

/** `  12 user       (archived) Port the parser…` */
function rowLine(row: Pick<StoredMessage, "seq" | "role" | "active" | "text">): string {
  return `${String(row.seq).padStart(5)} ${row.role.padEnd(9)} ${row.active ? "          " : "(archived)"} ${oneLine(row.text, 100)}`;
}

/** Runs `sessions`. */
export async function runSessions(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, SESSIONS_FLAGS);
  const [sub, ...rest] = positionals;
  if (sub === undefined || !(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`expects one of ${SUBCOMMANDS.join(", ")}${sub ? `, got '${sub}'` : ""}`);
  const path = resolve(io.cwd, values.db ?? DEFAULT_SESSION_DB);
  if (sub === "import") {
    if (!FORMAT_CHOICES.includes(values.format)) throw new UsageError(`--format must be one of ${FORMAT_CHOICES.join(", ")}`);
    if (values["all-scopes"] === true) throw new UsageError("import stores one session: give --scope <id>, not --all-scopes");
    return importSession(io, path, { files: rest, format: values.format, session: values.session, platform: values.platform, scope: values.scope });
  }
  const limit = parsePositiveInt(values.limit, "--limit");
  const windowFlag = values.window === undefined ? 2 : Number(values.window);
  if (!Number.isInteger(windowFlag) || windowFlag < 0 || windowFlag > 20) throw new UsageError(`--window must be a whole number from 0 to 20, got '${values.window}'`);
  const scope = scopeFromFlags(values);
  const store = openExistingSessionStore(path);
  try {
    if (sub === "list") return await list(io, store, limit ?? 20, values.platform, scope, values.json === true, rest);
    if (sub === "search") return await search(io, store, rest.join(" "), { limit: limit ?? 10, window: windowFlag, session: values.session, scope, json: values.json === true });
    return show(io, store, rest, { around: parsePositiveInt(values.around, "--around"), window: windowFlag, all: values.all === true, scope, json: values.json === true });
  } finally {
    store.close();
  }
}

async function list(io: CommandIO, store: SessionStore, limit: number, platform: string | undefined, scope: string | undefined, json: boolean, rest: string[]): Promise<number> {
  if (rest.length > 0) throw new UsageError("list takes no arguments");
  const sessions = store.listSessions({ limit: Math.min(limit, 500), ...(platform ? { platform } : {}), ...(scope !== undefined ? { scope } : {}) });
  if (json) {
    io.stdout(JSON.stringify(sessions, null, 2));
    return EXIT_OK;
  }
  if (sessions.length === 0) {
    io.stdout("no sessions");
    return EXIT_OK;
  }
  for (const s of sessions) {
    const { first } = await sessionEnds(store, s.id, s.lastSeq);
    const compactions = s.compressionCount > 0 ? `, ${s.compressionCount} compaction${s.compressionCount === 1 ? "" : "s"}` : "";
    const owner = scope === undefined ? `  [${s.scope}]` : "";
    io.stdout(`${s.id}${owner}  ${when(s.updatedAt)}  ${s.platform}  ${s.activeCount}/${s.messageCount} active${compactions}  ${s.title ?? ""}`.trimEnd());
    if (first?.role === "user") io.stdout(`    first ask: ${oneLine(first.text, 100)}`);
  }
  return EXIT_OK;
}

async function search(io: CommandIO, store: SessionStore, query: string, options: { limit: number; window: number; session: string | undefined; scope: string | undefined; json: boolean }): Promise<number> {
  if (query.trim() === "") throw new UsageError("search expects a query");
  const result = await sessionSearch(searchSourceFor(store, options.scope), { query, limit: Math.min(options.limit, 50), window: options.window, ...(options.session ? { session_id: options.session } : {}) });
  if (result.mode !== "search") throw new Error("session_search answered a query with a listing");
  if (options.json) {
    io.stdout(JSON.stringify(result, null, 2));
    return EXIT_OK;
  }
  if (result.sessions.length === 0) {
    io.stdout(`no turn matches ${JSON.stringify(query)}`);
    return EXIT_OK;
  }
  for (const session of result.sessions) {
    io.stdout(`${session.session_id}${session.title ? `  ${session.title}` : ""}`);
    for (const hit of session.hits) {
      io.stdout(`  hit at seq ${hit.seq}${hit.archived ? " (archived by a compaction)" : ""}:`);
      for (const m of hit.around) io.stdout(`  ${m.seq === hit.seq ? ">" : " "}${rowLine(m)}`);
    }
  }
  return EXIT_OK;
}

function show(io: CommandIO, store: SessionStore, rest: string[], options: { around: number | undefined; window: number; all: boolean; scope: string | undefined; json: boolean }): number {
  const [sessionId, ...extra] = rest;
  if (sessionId === undefined || extra.length > 0) throw new UsageError("show expects one session id");
  const stored = store.getSession(sessionId);
  const session = stored !== undefined && (options.scope === undefined || stored.scope === options.scope) ? stored : undefined;
  if (session === undefined) {
    io.stderr(`context-engine sessions: no session '${sessionId}'${options.scope === undefined ? "" : ` in scope '${options.scope}' (--scope <id>, or --all-scopes for every scope)`}`);
    return EXIT_FAILURE;
  }
  const overview = store.listSessions({ ids: [sessionId] })[0]!;
  const rows =
    options.around !== undefined
      ? store.messagesBySeq(sessionId, Math.max(1, options.around - options.window), options.around + options.window)
      : options.all
        ? store.messagesBySeq(sessionId, 1, overview.lastSeq)
        : store.activeRows(sessionId);
  const pending = pendingWorkOf(store.engineStates?.(sessionId) ?? []);
  if (options.json) {
    io.stdout(JSON.stringify({ session: overview, messages: rows, pending }, null, 2));
    return EXIT_OK;
  }
  io.stdout(`${session.id}  ${session.platform}  ${overview.activeCount}/${overview.messageCount} active  ${session.title ?? ""}`.trimEnd());
  for (const work of pending) io.stdout(`  pending: ${pendingWorkLine(work)}`);
  for (const row of rows) io.stdout(rowLine(row));
  return EXIT_OK;
}
