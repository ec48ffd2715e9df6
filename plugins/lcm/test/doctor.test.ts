import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchableText } from "../src/messageText.js";
import type { LcmEngine } from "../src/engine.js";
import { LcmStore } from "../src/store/LcmStore.js";
import { sessionKey } from "../src/store/LcmStore.js";
import { checkLcmStore } from "../src/doctor.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const DOCTOR_BIN = fileURLToPath(new URL("../bin/lcm-doctor.js", import.meta.url));

function runDoctor(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [DOCTOR_BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the lcm doctor", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  let path: string;
  beforeEach(async () => {
    dir = tempDir();
    path = join(dir.dir, "lcm.db");
    engine = makeEngine(dir.dir);
    await engine.compress(conversation(40));
    engine.onSessionStart("other");
    await engine.compress(conversation(30, { from: 50 }));
    engine.close();
  });
  afterEach(() => dir.cleanup());

  it("finds nothing wrong with a store lcm wrote", async () => {
    const store = new LcmStore(path);
    const report = await checkLcmStore(store);
    store.close();
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, sessions: 2, messages: 280 });
    expect(report.summaries).toBeGreaterThan(0);
    const cli = await runDoctor([path]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/2 sessions, 280 messages, \d+ summaries: no problems/);
  });

  it("reports a context item that resolves to nothing, a lost source, a wrong range and a missing index row", async () => {
    const store = new LcmStore(path);
    const db = store.db;
    const leaf = store.allSummaries("default").find((s) => s.kind === "leaf")!;
    const firstSource = store.sourcesOf(leaf.id)[0]!;
    const message = store.getMessagesBySeq("default", 3, 3)[0]!;
    db.exec("DROP TRIGGER lcm_summary_sources_no_delete");
    db.prepare("DELETE FROM lcm_summary_sources WHERE summary_id = ? AND ord = 0").run(leaf.id);
    db.prepare("INSERT INTO lcm_context_items (session, ord, item_type, item_id) VALUES ('other', 999, 'message', 'msg_999999')").run();
    db.prepare("INSERT INTO lcm_messages_fts (lcm_messages_fts, rowid, text, skey) VALUES ('delete', ?, ?, ?)").run(message.rowId, searchableText(message.message), sessionKey("default"));
    const report = await checkLcmStore(store);
    store.close();
    expect(report.ok).toBe(false);
    const codes = report.problems.map((p) => `${p.code} ${p.session} ${p.id ?? ""}`.trim());
    expect(codes).toContain("missing_item other msg_999999");
    expect(codes).toContain(`range_mismatch default ${leaf.id}`);
    expect(codes).toContain(`missing_index_row default ${message.id}`);
    expect(codes).toContain(`unreachable_message default ${firstSource.id}`);
    const cli = await runDoctor([path, "--session", "default"]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`range_mismatch`);
    expect(cli.stdout).not.toContain("msg_999999");
    expect((await runDoctor([])).code).toBe(2);
  });
});
