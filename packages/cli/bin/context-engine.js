#!/usr/bin/env node
// The context-engine command: runs the compiled CLI in ../dist (built by `pnpm build`, shipped in the package).
import { main } from "../dist/main.js";

// A reader that stops early (`context-engine simulate … | head`) closes the pipe: stop quietly, no stack trace.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
