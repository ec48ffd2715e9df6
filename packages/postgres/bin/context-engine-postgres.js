#!/usr/bin/env node
// context-engine-postgres: migrates the PostgreSQL stores' tables as their owner (the compiled command in ../dist, built by `pnpm build`).
import { runPostgresCli } from "../dist/cli.js";

process.exitCode = await runPostgresCli(process.argv.slice(2), (line) => console.log(line), (line) => console.error(line));
