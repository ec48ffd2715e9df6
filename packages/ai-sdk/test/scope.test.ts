/** The AI SDK adapter tells the engine's tools whose conversation it is: its `scope`, else its host's. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor, openSqliteStore } from "@context-engine/core";
import type { SqliteSessionStore } from "@context-engine/core/store";
import { createAiSdkAdapter } from "../src/index.js";

let dir: string;
let store: SqliteSessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ai-sdk-scope-"));
  store = openSqliteStore(join(dir, "sessions.db"));
  for (const owner of ["alice", "bob"]) {
    const session = store.createSession({ platform: "web", scope: owner });
    store.appendMessages(session.id, [{ role: "user", content: `flamingo deploy notes of ${owner}` }]);
  }
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the adapter's session_search tool as the AI SDK would. */
async function search(adapter: ReturnType<typeof createAiSdkAdapter>): Promise<string> {
  const tool = adapter.tools["session_search"]!;
  return (await tool.execute!({ query: "flamingo" }, { toolCallId: "t1", messages: [] })) as string;
}

describe("the AI SDK adapter's scope", () => {
  it("answers session_search from the adapter's scope, else from its host's", async () => {
    const engine = new ContextCompressor({ store });
    const asAlice = await search(createAiSdkAdapter({ engine, scope: "alice" }));
    expect(asAlice).toContain("notes of alice");
    expect(asAlice).not.toContain("notes of bob");
    const viaHost = await search(createAiSdkAdapter({ host: { engine, scope: "bob" } }));
    expect(viaHost).toContain("notes of bob");
    expect(viaHost).not.toContain("notes of alice");
  });
});
