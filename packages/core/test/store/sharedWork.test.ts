/** SharedWork, the claim and the settled entry workers hand each other, on two connections to one SQLite file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { SharedWork } from "../../src/store/sharedWork.js";

interface Job {
  job: string;
}
interface Done {
  result: string;
}
const isJob = (value: unknown): value is Job => typeof (value as Partial<Job> | undefined)?.job === "string";
const isDone = (value: unknown): value is Done => typeof (value as Partial<Done> | undefined)?.result === "string";

let dir: string;
let stores: SqliteSessionStore[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shared-work-kit-"));
  stores = [];
});
afterEach(() => {
  for (const store of stores) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A worker's SharedWork on its own connection to the test's file: claims hold 200 ms unless renewed every `renewMs`. */
function worker(renewMs = 1_000): SharedWork<Job, Done> {
  const store = openSqliteStore(join(dir, "sessions.db"));
  stores.push(store);
  return new SharedWork<Job, Done>(store, { claimKey: "mine#working", entryKey: "mine#done", isClaim: isJob, isEntry: isDone, pollMs: 10, claimMs: 200, renewMs });
}

const pause = (ms: number) => new Promise((tick) => setTimeout(tick, ms));

describe("work shared through a store's engine state", () => {
  it("gives a claim to one worker until it is released or expires", async () => {
    const a = worker();
    const b = worker();
    expect(await a.claim("s", { job: "range 1" })).toBe(true);
    expect(await b.claim("s", { job: "range 1" })).toBe(false);
    expect(await b.liveClaim("s")).toMatchObject({ job: "range 1" });
    await pause(300);
    expect(await b.liveClaim("s")).toBeUndefined();
    expect(await b.claim("s", { job: "range 1" })).toBe(true);
    await b.release("s");
    expect(await a.claim("s", { job: "range 2" })).toBe(true);
  });

  it("hands the saved entry to one taker only, and ignores an entry of another shape", async () => {
    const a = worker();
    const b = worker();
    await a.save("s", { result: "summary" });
    expect(await b.take("s")).toEqual({ result: "summary" });
    expect(await a.take("s")).toBeUndefined();
    stores[0]!.saveEngineState("mine#done", "s", { other: 1 });
    expect(await b.take("s")).toBeUndefined();
  });

  it("waits for the entry while another worker's claim covers the work, and not for a claim on other work", async () => {
    const a = worker();
    const b = worker();
    await a.claim("s", { job: "range 1" });
    setTimeout(() => void a.save("s", { result: "late" }), 60);
    expect(await b.takeOrAwait("s", (claim) => claim.job === "range 1", undefined)).toEqual({ entry: { result: "late" }, waited: true });
    expect(await b.takeOrAwait("s", (claim) => claim.job === "range 2", undefined)).toEqual({ entry: undefined, waited: false });
    const aborted = new AbortController();
    setTimeout(() => aborted.abort(), 60);
    expect(await b.takeOrAwait("s", () => true, aborted.signal)).toEqual({ entry: undefined, waited: true });
    await a.release("s");
    expect(await b.takeOrAwait("s", () => true, undefined)).toEqual({ entry: undefined, waited: false });
  });

  it("keeps a claim alive while the work runs, and forgets claim and entry at the session's end", async () => {
    const a = worker(20);
    const b = worker();
    await a.claim("s", { job: "range 1" });
    const stop = a.keepClaimed("s", { job: "range 1" });
    await pause(400);
    expect(await b.claim("s", { job: "range 1" })).toBe(false);
    stop();
    await pause(300);
    expect(await b.liveClaim("s")).toBeUndefined();
    await a.save("s", { result: "done" });
    await a.claim("s", { job: "range 2" });
    await a.forget("s");
    expect([await b.take("s"), await b.liveClaim("s")]).toEqual([undefined, undefined]);
  });
});
