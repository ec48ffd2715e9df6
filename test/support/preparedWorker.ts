/**
 * One worker process of the prepared-summaries workload: runs {@link runPreparedWorkload} with the
 * options given as one JSON argument, from `startAt` (epoch ms) so all workers begin together, and prints
 * its report as one JSON line.
 */
import { runPreparedWorkload, type PreparedWorkloadOptions } from "./preparedWorkload.js";

const options = JSON.parse(process.argv[2]!) as PreparedWorkloadOptions & { startAt: number };
await new Promise((go) => setTimeout(go, Math.max(0, options.startAt - Date.now())));
process.stdout.write(`${JSON.stringify(await runPreparedWorkload(options))}\n`);
