/**
 * lcm sessions belong to someone, on the SQLite store: the scope isolation contract of the agent tools,
 * and a store file written before scopes (schema v3) opened again, its sessions in the default scope.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LcmStore } from "../src/store/LcmStore.js";
import { describeLcmScopeIsolation } from "./scopeIsolationContract.js";
import { newMessage } from "./storeContract.js";
import { tempDir } from "./support.js";

let cleanup: (() => void) | undefined;

describeLcmScopeIsolation("LcmStore (SQLite): lcm sessions belong to someone", {
  open: () => {
    const made = tempDir();
    cleanup = made.cleanup;
    return new LcmStore(join(made.dir, "lcm.db"));
  },
  cleanup: () => cleanup?.(),
});

describe("LcmStore (SQLite): a store written before scopes", () => {
  it("records the sessions of a schema v3 file in the default scope when it is opened again", () => {
    const made = tempDir();
    try {
      const path = join(made.dir, "lcm.db");
      const old = new LcmStore(path);
      old.appendMessages("s", [newMessage({ role: "user", content: "hello" })], 1_000);
      old.db.exec("DROP TABLE lcm_sessions");
      old.db.pragma("user_version = 3");
      old.close();
      const store = new LcmStore(path);
      try {
        expect(store.sessions("default")).toEqual(["s"]);
        expect(store.sessions("alice")).toEqual([]);
        expect(() => store.recordSessionScope("s", "alice")).toThrow(/belongs to scope 'default', not 'alice'/);
        expect(() => store.db.exec("UPDATE lcm_sessions SET scope = 'alice'")).toThrow(/scope of a session is fixed/);
      } finally {
        store.close();
      }
    } finally {
      made.cleanup();
    }
  });
});
