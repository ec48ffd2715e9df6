import { join } from "node:path";
import { LcmStore } from "../src/store/LcmStore.js";
import type { LcmStoreAsync } from "../src/store/LcmStoreAsync.js";
import { tempDir } from "./support.js";
import { describeLcmStoreContract } from "./storeContract.js";

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
