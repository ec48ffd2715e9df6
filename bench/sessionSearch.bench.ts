/**
 * The SQLite session store's search of long queries over 1,500 turns: a 300-term query repeating one
 * word (`alpha OR alpha OR …`), 300 distinct words, and a short query for scale. Each search runs on the
 * event loop, so its time is how long the loop is blocked. Figures only; issue 20's target (under 50 ms)
 * is printed beside them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatMessage } from "@context-engine/core";
import { openSqliteStore } from "../packages/core/src/store/sqliteStore.js";
import { median } from "./sideBySide.js";

const TURNS = 1500;
const RUNS = 5;
const TARGET_MS = 50;

/** Prints the figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ce-bench-search-"));
  const store = openSqliteStore(join(dir, "sessions.db"));
  try {
    const session = await store.createSession({ platform: "bench" });
    const words = ["alpha", "build", "cargo", "deploy", "error", "flamingo", "gateway", "index", "llvm", "menu"];
    const turns: ChatMessage[] = Array.from({ length: TURNS }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `turn ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]} the ${i % 3 === 0 ? "alpha" : "beta"} release notes and a longer sentence about the ${words[(i * 3) % words.length]} step`,
    }));
    await store.appendMessages(session.id, turns);
    const queries: [string, string][] = [
      ["300 × 'alpha' joined by OR", Array.from({ length: 300 }, () => "alpha").join(" OR ")],
      ["300 distinct words joined by OR", Array.from({ length: 300 }, (_, i) => `${words[i % words.length]}${i}`).join(" OR ")],
      ["300 × 'alpha' side by side", Array.from({ length: 300 }, () => "alpha").join(" ")],
      ["'alpha OR flamingo'", "alpha OR flamingo"],
    ];
    for (const [label, query] of queries) {
      const times = Array.from({ length: RUNS }, () => {
        const started = performance.now();
        void store.search(query, { limit: 20 });
        return performance.now() - started;
      });
      const hits = (await store.search(query, { limit: 20 })).length;
      const ms = median(times);
      console.log(`search ${label} over ${TURNS} turns: median ${ms.toFixed(1)} ms over ${RUNS} runs, ${hits} hits (target < ${TARGET_MS} ms: ${ms < TARGET_MS ? "met" : "missed"})`);
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
