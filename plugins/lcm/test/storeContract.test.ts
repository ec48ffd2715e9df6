import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LcmStore } from "../src/store/LcmStore.js";
import type { LcmStoreAsync } from "../src/store/LcmStoreAsync.js";
import { tempDir } from "./support.js";
import { describeLcmStoreContract, newMessage } from "./storeContract.js";

let cleanup: (() => void) | undefined;

// The SQLite store is an LcmStoreAsync as it is (it returns the values).
describeLcmStoreContract<LcmStore & LcmStoreAsync>("LcmStore (SQLite): the lcm store contract", {
  open: () => {
    const made = tempDir();
    cleanup = made.cleanup;
    return new LcmStore(join(made.dir, "lcm.db"));
  },
  cleanup: () => cleanup?.(),
});

describe("LcmStore as an LcmStoreAsync", () => {
  it("answers with values, not promises, so lcm's synchronous engine can use it as it is", () => {
    const made = tempDir();
    const store: LcmStoreAsync = new LcmStore(join(made.dir, "lcm.db"));
    try {
      const appended = store.appendMessages("s", [newMessage({ role: "user", content: "hello" })], 1_000);
      expect(Array.isArray(appended)).toBe(true);
      expect(store.lastSeq("s")).toBe(1);
      expect(store.contextItems("s")).toEqual([{ type: "message", id: (appended as { id: string }[])[0]!.id }]);
    } finally {
      void store.close();
      made.cleanup();
    }
  });
});
