/**
 * `context-engine-postgres migrate --url <owner-url> [--app-role <role>] [--schema <name>] [--json]`:
 * creates or migrates the stores' tables as the owner role the URL logs in as, and grants the
 * application role what the stores need (ownerMigration.ts). Exit code 0 when done, 1 when the database
 * refused, 2 for a usage error.
 */
import { parseArgs } from "node:util";
import { DEFAULT_SCHEMA } from "./connection.js";
import { migratePostgres } from "./ownerMigration.js";

const USAGE = [
  "usage: context-engine-postgres migrate --url <owner-url> [--app-role <role>] [--schema <name>] [--json]",
  "",
  "  --url <owner-url>   postgres://owner@host/db: the role that owns the tables and runs the migrations",
  "                      (its password from the URL or PGPASSWORD)",
  "  --app-role <role>   the role the workers connect as: granted SELECT, INSERT, UPDATE, DELETE on the",
  "                      tables and USAGE on the schema and sequences, nothing more",
  `  --schema <name>     the schema of the tables (default ${DEFAULT_SCHEMA})`,
  "  --json              print the result as JSON",
].join("\n");

/** Runs the command with `args`; resolves to the exit code. */
export async function runPostgresCli(args: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { url: { type: "string" }, "app-role": { type: "string" }, schema: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    err(`context-engine-postgres: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(USAGE);
    return 0;
  }
  const [command, ...extra] = parsed.positionals;
  if (command !== "migrate" || extra.length > 0) {
    err(`context-engine-postgres: ${command === undefined ? "expects a command" : `unknown command '${[command, ...extra].join(" ")}'`}\n${USAGE}`);
    return 2;
  }
  const { url, schema, json } = parsed.values;
  const appRole = parsed.values["app-role"];
  if (url === undefined || url === "" || appRole === "" || schema === "") {
    err(`context-engine-postgres migrate: ${url === undefined || url === "" ? "--url <owner-url> is required" : "--app-role and --schema need a value"}\n${USAGE}`);
    return 2;
  }
  try {
    const result = await migratePostgres({ connectionString: url, ...(appRole === undefined ? {} : { appRole }), ...(schema === undefined ? {} : { schema }), maxConnections: 1 });
    if (json) out(JSON.stringify(result, null, 2));
    else {
      for (const step of result.steps) {
        out(`${result.schema}: ${step.component} ${step.from === step.to ? `at version ${step.to}, current` : `migrated from version ${step.from} to ${step.to}`} (owner ${result.owner})`);
      }
      if (result.appRole !== undefined) out(`${result.schema}: granted ${result.appRole} SELECT, INSERT, UPDATE, DELETE on the tables, USAGE on the schema and sequences`);
      for (const warning of result.warnings) out(`warning: ${warning}`);
    }
    return 0;
  } catch (error) {
    err(`context-engine-postgres migrate: ${(error as Error).message}`);
    return 1;
  }
}
