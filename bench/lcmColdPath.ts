/**
 * The cold path of lcm (issue #9): a gateway reloads the session from its store and hands the engine
 * freshly parsed message objects every turn. Times `compress()` per turn with the same objects re-used
 * (warm) and with JSON.parse copies (fresh), for ingest (below the threshold) and for compaction.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatMessage, TokenCounter } from "../plugins/lcm/src/core.js";
import { LcmEngine } from "../plugins/lcm/src/engine.js";
import { median } from "./sideBySide.js";

/** The engine a scenario runs: its window, counter and lcm settings; `force` compacts every turn. */
export interface ColdPathOptions {
  contextLength: number;
  counter?: TokenCounter | undefined;
  config?: Record<string, unknown>;
  force?: boolean;
}

/** One timed scenario: per-turn milliseconds of warm and fresh turns. */
export interface ColdPathFigures {
  warmMs: number;
  freshMs: number;
}

const copy = (messages: ChatMessage[]): ChatMessage[] => JSON.parse(JSON.stringify(messages)) as ChatMessage[];

/**
 * Per-turn time of `compress()` over a session of `total` messages made by `make`, `turns` turns of four
 * new messages each; `fresh` hands JSON.parse copies of the host's list every turn.
 */
async function turnTimes(
  make: (i: number) => ChatMessage,
  total: number,
  turns: number,
  fresh: boolean,
  options: ColdPathOptions,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "lcm-cold-"));
  const engine = new LcmEngine({
    dbPath: join(dir, "lcm.db"),
    model: { model: "bench", contextLength: options.contextLength },
    config: options.config ?? {},
    ...(options.counter ? { tokenCounter: options.counter } : {}),
  });
  try {
    let host: ChatMessage[] = [{ role: "system", content: "You are a careful coding agent." }];
    for (let i = 0; i < total; i++) host.push(make(i));
    host = await engine.compress(host);
    const times: number[] = [];
    let next = total;
    for (let t = 0; t < turns; t++) {
      for (let k = 0; k < 4; k++) host.push(make(next++));
      const input = fresh ? copy(host) : host;
      const start = performance.now();
      const output = await engine.compress(input, { force: options.force ?? false });
      times.push(performance.now() - start);
      host = fresh ? copy(output) : output;
    }
    return median(times);
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Warm and fresh per-turn times of one scenario. */
export async function coldPathFigures(
  make: (i: number) => ChatMessage,
  total: number,
  turns: number,
  options: ColdPathOptions,
): Promise<ColdPathFigures> {
  const warmMs = await turnTimes(make, total, turns, false, options);
  const freshMs = await turnTimes(make, total, turns, true, options);
  return { warmMs, freshMs };
}

/** One printed line: per-turn times, messages handled per second, and the fresh/warm ratio. */
export function coldPathLine(label: string, messages: number, f: ColdPathFigures): string {
  const rate = (ms: number) => Math.round(messages / (ms / 1000)).toLocaleString("en-US");
  return `${label}: warm ${f.warmMs.toFixed(1)} ms/turn (${rate(f.warmMs)} msg/s), fresh ${f.freshMs.toFixed(1)} ms/turn (${rate(f.freshMs)} msg/s), fresh/warm ${(f.freshMs / f.warmMs).toFixed(2)}×`;
}
