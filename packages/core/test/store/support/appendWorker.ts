/**
 * A second process of the multi-process store tests: opens the store file given as argv[2] and appends
 * argv[4] turns one by one to session argv[3] (created when missing), each tagged with argv[5], from the
 * moment argv[6] on (epoch ms, optional). Prints one JSON line:
 * `{ appended, failures }` (failures: the error text of every append that threw).
 */
import { openSqliteStore } from "../../../src/store/sqliteStore.js";

const [path, sessionId, count, tag, startAt] = process.argv.slice(2) as [string, string, string, string, string | undefined];
// Both processes of a test start their work at the same moment (argv[6], epoch ms), whenever they finished loading.
if (startAt !== undefined) await new Promise((go) => setTimeout(go, Math.max(0, Number(startAt) - Date.now())));
const store = openSqliteStore(path);
if (store.getSession(sessionId) === undefined) store.createSession({ id: sessionId, platform: "worker" });
const failures: string[] = [];
let appended = 0;
for (let i = 0; i < Number(count); i++) {
  try {
    store.appendMessages(sessionId, [{ role: "user", content: `${tag} turn ${i}` }]);
    appended++;
  } catch (error) {
    failures.push(error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error));
  }
}
store.close();
process.stdout.write(`${JSON.stringify({ appended, failures })}\n`);
