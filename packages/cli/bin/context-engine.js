#!/usr/bin/env node
// The context-engine command. The packages ship TypeScript sources; tsx compiles them on the fly.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
