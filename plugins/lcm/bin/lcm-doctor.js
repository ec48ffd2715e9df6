#!/usr/bin/env node
// lcm-doctor: checks an lcm store file (the compiled checker in ../dist, built by `pnpm build`).
import { runDoctorCli } from "../dist/doctorCli.js";

process.exitCode = await runDoctorCli(process.argv.slice(2), (line) => console.log(line), (line) => console.error(line));
