/** A reader that closes stdout early (`| head -1`) stops the output, not the command's work. */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBin, tempDir } from "./support/cli.js";

/** A transcript whose compressed listing is far larger than a pipe's buffer, so writes go on after the reader left. */
function bigTranscript(): unknown[] {
  const messages: unknown[] = [{ role: "system", content: "You are helpful." }];
  for (let i = 0; i < 3000; i++) {
    messages.push({ role: "user", content: `question number ${i} about the port of module ${i}` });
    messages.push({ role: "assistant", content: `answer number ${i} explaining the port in some detail` });
  }
  return messages;
}

describe("context-engine with stdout closed early", () => {
  it("still writes --out completely and exits 0 when the reader closes after the first line", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "t.json"), JSON.stringify(bigTranscript()));
    const child = spawn(process.execPath, [cliBin, "compress", "t.json", "--out", "f.json", "--context-length", "600000"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let firstLine = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once("data", (chunk: Buffer) => {
      firstLine = chunk.toString().split("\n")[0]!;
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(firstLine).toMatch(/^transcript +t\.json/);
    expect([code, stderr]).toEqual([0, ""]);
    const written = JSON.parse(readFileSync(join(dir, "f.json"), "utf8")) as unknown[];
    expect(written.length).toBeGreaterThan(1000);
  });
});
