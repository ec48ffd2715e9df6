/**
 * Per-turn cost of `CompactionSession` below the trigger (issue 35): each turn appends four messages and
 * asks `maybeCompress` whether to compact, over a real SQLite store holding 1,000 to 100,000 messages.
 * Warm keeps one session object across turns; fresh opens the session anew every turn, as a stateless
 * gateway worker does per request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextCompressor } from "../packages/core/src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../packages/core/src/messages/schema.js";
import { CompactionSession } from "../packages/core/src/session/CompactionSession.js";
import { openSqliteStore } from "../packages/core/src/store/sqliteStore.js";
import { RoughTokenCounter } from "../packages/core/src/tokens/counter.js";
import { median } from "./sideBySide.js";

/** Median milliseconds of one turn's `append` and `maybeCompress`. */
export interface SessionTurnFigures {
  appendMs: number;
  maybeCompressMs: number;
}

/** Per-turn times over a session of `total` messages made by `make`, `turns` turns of four messages each. */
export async function sessionTurnFigures(make: (i: number) => ChatMessage, total: number, turns: number, reopened: boolean): Promise<SessionTurnFigures> {
  const dir = mkdtempSync(join(tmpdir(), "session-turns-"));
  const store = openSqliteStore(join(dir, "sessions.db"));
  const engine = new ContextCompressor({ tokenCounter: new RoughTokenCounter(), model: { model: "bench", contextLength: 1_000_000_000 } });
  const open = () => new CompactionSession({ engine, store, platform: "bench", sessionId: "bench" });
  try {
    let session = open();
    const history: ChatMessage[] = [{ role: "system", content: "You are a careful coding agent." }];
    for (let i = 0; i < total; i++) history.push(make(i));
    session.append(history);
    const appendTimes: number[] = [];
    const compressTimes: number[] = [];
    let next = total;
    for (let t = 0; t < turns; t++) {
      if (reopened) session = open();
      const turn = Array.from({ length: 4 }, () => make(next++));
      const start = performance.now();
      session.append(turn);
      const appended = performance.now();
      await session.maybeCompress({ promptTokens: 1_000 });
      appendTimes.push(appended - start);
      compressTimes.push(performance.now() - appended);
    }
    return { appendMs: median(appendTimes), maybeCompressMs: median(compressTimes) };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One printed line: a size's per-turn times with the session kept and reopened. */
export function sessionTurnLine(total: number, kept: SessionTurnFigures, reopened: SessionTurnFigures): string {
  const f = (x: SessionTurnFigures) => `append ${x.appendMs.toFixed(2)} ms + maybeCompress ${x.maybeCompressMs.toFixed(2)} ms`;
  return `CompactionSession per turn (below the trigger), ${total.toLocaleString("en-US")} messages: kept ${f(kept)}, reopened each turn ${f(reopened)}`;
}
