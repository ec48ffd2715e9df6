#!/usr/bin/env node
// The context-engine command: runs the compiled CLI in ../dist (built by `pnpm build`, shipped in the package).
import { main } from "../dist/main.js";

// A reader that stops early (`context-engine compress t.json --out f | head -1`) closes the pipe: from then
// on stdout output is dropped quietly, and the command still finishes its work (--out files, exit code).
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  process.stdout.write = (_chunk, encoding, callback) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  };
});

process.exitCode = await main(process.argv.slice(2));
