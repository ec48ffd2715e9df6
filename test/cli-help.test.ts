/** `<command> --help` lists every flag the command parses, from the same declaration, and starts fast. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRANSCRIPT_FORMATS } from "@context-engine/core/formats";
import { COMMAND_FLAGS } from "../packages/cli/src/commandFlags.js";
import { repoRoot, runCli } from "./support/cli.js";

const COMMANDS = Object.entries(COMMAND_FLAGS);

describe("context-engine <command> --help", () => {
  it("declares flags for exactly the commands the CLI offers", async () => {
    const run = await runCli(["--help"]);
    const listed = [...run.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(Object.keys(COMMAND_FLAGS).sort());
  });

  it("describes every option key each command parses, with its short alias, on a line of its own", async () => {
    const runs = await Promise.all(COMMANDS.map(([command]) => runCli([command, "--help"])));
    runs.forEach((run, i) => {
      const [command, flags] = COMMANDS[i]!;
      expect(run.code, command).toBe(0);
      for (const [name, flag] of Object.entries(flags)) {
        const line = run.stdout.split("\n").find((l) => new RegExp(`^ {2}(-\\w, )? *--${name}\\b`).test(l));
        expect(line, `${command} --${name}`).toBeDefined();
        expect(line, `${command} --${name}`).toContain(flag.description);
        if ("short" in flag) expect(line).toContain(`-${flag.short}, --${name}`);
      }
    });
  });

  it("names every transcript format the importer supports in import --help", async () => {
    const run = await runCli(["import", "--help"]);
    for (const format of TRANSCRIPT_FORMATS) expect(run.stdout, format).toContain(format);
  });

  it("reaches --help through modules that never import the core barrel, so help starts fast", () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      expect(source, file).not.toMatch(/from "@context-engine\/core"/);
      // Static relative imports only: commands are imported lazily with import().
      for (const [, spec] of source.matchAll(/^import (?!type )[^;]*? from "(\.[^"]+)\.js";/gm)) visit(join(dirname(file), `${spec}.ts`));
    };
    visit(join(repoRoot, "packages/cli/src/main.ts"));
    expect([...seen].map((f) => f.slice(repoRoot.length + 1)).sort()).toEqual(
      ["packages/cli/src/commandFlags.ts", "packages/cli/src/errors.ts", "packages/cli/src/flags.ts", "packages/cli/src/main.ts", "packages/cli/src/version.ts"],
    );
  });
});
