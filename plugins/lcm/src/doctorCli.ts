/**
 * `lcm-doctor <db_path> [--session <id>]... [--json]`: runs the doctor on an lcm store file and prints
 * its problems. Exit code 0 when there are none, 1 when there are, 2 for a usage error.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { checkLcmStore } from "./doctor.js";
import { LcmStore } from "./store/LcmStore.js";

const USAGE = "usage: lcm-doctor <db_path> [--session <id>]... [--json]";

/** Runs the command with `args`; resolves to the exit code. */
export async function runDoctorCli(args: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { session: { type: "string", multiple: true }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    err(`lcm-doctor: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(USAGE);
    return 0;
  }
  const [path, ...extra] = parsed.positionals;
  if (path === undefined || extra.length > 0) {
    err(`lcm-doctor: expects exactly one store file\n${USAGE}`);
    return 2;
  }
  if (!existsSync(path)) {
    err(`lcm-doctor: ${path} does not exist`);
    return 2;
  }
  const store = new LcmStore(path);
  try {
    const report = await checkLcmStore(store, parsed.values.session);
    if (parsed.values.json) out(JSON.stringify(report, null, 2));
    else {
      const counts = `${report.sessions} session${report.sessions === 1 ? "" : "s"}, ${report.messages} messages, ${report.summaries} summaries`;
      out(report.ok ? `${counts}: no problems` : `${counts}: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`);
      for (const p of report.problems) out(`  ${p.code}  session ${JSON.stringify(p.session)}${p.id ? `  ${p.id}` : ""}: ${p.message}`);
    }
    return report.ok ? 0 : 1;
  } finally {
    store.close();
  }
}
