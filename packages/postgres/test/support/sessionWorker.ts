/**
 * One worker process of the multi-process test and bench: runs {@link runWorkload} with the options
 * given as one JSON argument, from the moment `startAt` (epoch ms) so all workers begin together, and
 * prints its report as one JSON line.
 */
import { runWorkload, type WorkloadOptions } from "./workload.js";

const options = JSON.parse(process.argv[2]!) as WorkloadOptions & { startAt: number };
await new Promise((go) => setTimeout(go, Math.max(0, options.startAt - Date.now())));
process.stdout.write(`${JSON.stringify(await runWorkload(options))}\n`);
