#!/usr/bin/env node
// The context-engine command. The packages ship TypeScript sources; tsx compiles them on the fly.
import { register } from "tsx/esm/api";

// A reader that stops early (`context-engine simulate … | head`) closes the pipe: stop quietly, no stack trace.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
