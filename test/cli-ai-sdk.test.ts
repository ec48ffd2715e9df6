/** AI SDK-shaped transcripts: compress refuses them and names the converter; import converts them. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateConversation, type ChatMessage } from "@context-engine/core";
import { repoRoot, runCli, tempDir } from "./support/cli.js";

const aiSdkFile = join(repoRoot, "test/fixtures/ai-sdk/multi-step-tools.json");

describe("context-engine on Vercel AI SDK messages", () => {
  it("refuses to compress AI SDK messages with one line naming the message, the part and the converter, exit 1", async () => {
    const run = await runCli(["compress", "test/fixtures/ai-sdk/multi-step-tools.json"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("messages[1].content[1]: AI SDK 'image' part — convert AI SDK ModelMessage[] with importAiSdkMessages() or `context-engine import --format ai-sdk`");
    expect(run.stderr).toContain("messages[2].content[0]: AI SDK 'reasoning' part");
    expect(run.stdout).toBe("");
  });

  it("imports them with --format ai-sdk (or detected) into messages that compress accepts", async () => {
    const dir = tempDir();
    const out = join(dir, "messages.json");
    const explicit = await runCli(["import", aiSdkFile, "--format", "ai-sdk", "-o", out]);
    expect([explicit.code, explicit.stderr]).toEqual([0, `${aiSdkFile} (ai-sdk) → ${out}: 11 messages\n`]);
    expect(validateConversation(JSON.parse(readFileSync(out, "utf8")) as ChatMessage[])).toEqual([]);
    const detected = await runCli(["import", aiSdkFile]);
    expect(detected.code).toBe(0);
    expect(JSON.parse(detected.stdout)).toEqual(JSON.parse(readFileSync(out, "utf8")));
    const compressed = await runCli(["compress", out, "-q"]);
    expect([compressed.code, compressed.stderr]).toEqual([0, ""]);
    expect(compressed.stdout).toMatch(/^valid +yes/m);
  });
});
