import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createContextHost, InvalidEngineOutputError } from "@context-engine/core";
import { tempProject } from "../../../test/support/files.js";
import { createAiSdkAdapter } from "../src/index.js";

/** A directory engine that drops the call its last message answers: its output has an orphan tool result. */
const ORPHANING_ENGINE = `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Orphaning extends ContextEngine {
  readonly name = "orphaning";
  shouldCompress(): boolean { return true; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { this.compressionCount++; return [messages[0]!, ...messages.slice(-1)]; }
}
`;

const history: ModelMessage[] = [
  { role: "user", content: "list the files" },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "bash", input: { command: "ls" } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "bash", output: { type: "text", value: "a.txt b.txt" } }] },
];

describe("the AI SDK adapter built from a host", () => {
  it("refuses an engine output a provider would reject: the step throws InvalidEngineOutputError instead of sending it", async () => {
    const rootDir = tempProject({ "plugins/context_engine/orphaning/index.ts": ORPHANING_ENGINE }, "ce-adapter-output-");
    const host = await createContextHost({ config: { context: { engine: "orphaning" } } as never, rootDir });
    const adapter = createAiSdkAdapter({ host });
    await expect(adapter.prepareStep({ steps: [], stepNumber: 1, messages: history })).rejects.toThrow(InvalidEngineOutputError);
  });

  it("hands the output on when the host's check is off (context.validate_output: false)", async () => {
    const rootDir = tempProject({ "plugins/context_engine/orphaning/index.ts": ORPHANING_ENGINE }, "ce-adapter-output-");
    const host = await createContextHost({ config: { context: { engine: "orphaning", validate_output: false } } as never, rootDir });
    const adapter = createAiSdkAdapter({ host });
    const step = await adapter.prepareStep({ steps: [], stepNumber: 1, messages: history });
    expect(step?.messages).toHaveLength(2);
  });
});
