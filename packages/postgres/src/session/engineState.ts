/**
 * The session store's engine state over PostgreSQL: one JSON value per engine name and session id
 * (cooldowns, failure streaks, and the work workers hand each other — a `compact_context` request, a
 * summary prepared in the background), with the take (one caller gets it) and the claim (one caller wins)
 * workers share work through. See core's `EngineStateStore`.
 */
import type { EngineStateEntry } from "@context-engine/core/store";
import { engineStateJson, parseEngineState } from "@context-engine/core/store";
import type { Queryable } from "../connection.js";

/** The `engine_state` table of schema `s` (quoted), read and written through `db`. */
export class PgEngineState {
  constructor(
    private readonly db: Queryable,
    private readonly s: string,
    private readonly now: () => number,
  ) {}

  async load(engine: string, sessionId: string): Promise<unknown> {
    const { rows } = await this.db.query<{ state_json: string }>(`SELECT state_json FROM ${this.s}.engine_state WHERE engine = $1 AND session_id = $2`, [engine, sessionId]);
    return rows[0] === undefined ? undefined : parseEngineState(engine, sessionId, rows[0].state_json);
  }

  async save(engine: string, sessionId: string, state: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.s}.engine_state (engine, session_id, state_json, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (engine, session_id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`,
      [engine, sessionId, engineStateJson(engine, sessionId, state), this.now()],
    );
  }

  async clear(engine: string, sessionId: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.engine_state WHERE engine = $1 AND session_id = $2`, [engine, sessionId]);
  }

  /** Reads and deletes in one statement: of workers taking the same state, one gets it. */
  async take(engine: string, sessionId: string): Promise<unknown> {
    const { rows } = await this.db.query<{ state_json: string }>(`DELETE FROM ${this.s}.engine_state WHERE engine = $1 AND session_id = $2 RETURNING state_json`, [engine, sessionId]);
    return rows[0] === undefined ? undefined : parseEngineState(engine, sessionId, rows[0].state_json);
  }

  /** Saves unless a state saved at or after `staleBefore` is there: true when this call saved it. */
  async claim(engine: string, sessionId: string, state: unknown, staleBefore: number): Promise<boolean> {
    const { rows } = await this.db.query(
      `INSERT INTO ${this.s}.engine_state (engine, session_id, state_json, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (engine, session_id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at
       WHERE ${this.s}.engine_state.updated_at < $5 RETURNING 1 AS claimed`,
      [engine, sessionId, engineStateJson(engine, sessionId, state), this.now(), staleBefore],
    );
    return rows.length > 0;
  }

  /** Every engine's state of `sessionId`, by engine name. */
  async list(sessionId: string): Promise<EngineStateEntry[]> {
    const { rows } = await this.db.query<{ engine: string; state_json: string; updated_at: string }>(
      `SELECT engine, state_json, updated_at FROM ${this.s}.engine_state WHERE session_id = $1 ORDER BY engine`,
      [sessionId],
    );
    return rows.map((row) => ({ engine: row.engine, state: parseEngineState(row.engine, sessionId, row.state_json), updatedAt: Number(row.updated_at) }));
  }
}
