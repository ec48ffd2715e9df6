import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { InvalidEngineOutputError } from "../../src/engine/invalidOutput.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import { checkEngineOutput } from "../../src/host/engineChecks.js";
import type { ChatMessage } from "../../src/messages/schema.js";

/** A directory engine whose compress() keeps the system prompt, the first ask and the last message: a tool result whose call it dropped. */
const ORPHANING_ENGINE = `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Orphaning extends ContextEngine {
  readonly name = "orphaning";
  #calls = 0;
  get calls(): number { return this.#calls; }
  shouldCompress(): boolean { return true; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { this.#calls++; return [messages[0]!, messages[1]!, ...messages.slice(-1)]; }
}
`;

/** A conversation whose last message is a tool result. */
function conversation(): ChatMessage[] {
  return [
    { role: "system", content: "sys" },
    { role: "user", content: "list the files" },
    { role: "assistant", content: "Sure." },
    { role: "user", content: "go on" },
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] },
    { role: "tool", tool_call_id: "call_1", content: "a.txt b.txt" },
  ];
}

async function hostWith(context: Record<string, unknown>) {
  const rootDir = tempProject({ "plugins/context_engine/orphaning/index.ts": ORPHANING_ENGINE }, "ce-output-");
  return createContextHost({ config: { context: { engine: "orphaning", ...context } } as never, rootDir });
}

describe("the engine the host hands out checks its output", () => {
  it("throws InvalidEngineOutputError naming the engine, the first problem and its message index, and leaves the input as it was", async () => {
    const host = await hostWith({});
    const input = conversation();
    const copy = structuredClone(input);
    const error = await host.engine.compress(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidEngineOutputError);
    const refused = error as InvalidEngineOutputError;
    expect(refused.engine).toBe("orphaning");
    expect(refused.problem?.code).toBe("orphan_tool_result");
    expect(refused.messageIndex).toBe(2);
    expect(refused.message).toBe(
      "engine 'orphaning' returned a conversation a provider would reject: messages[2] (tool, tool_call_id \"call_1\"): result has no matching tool call [orphan_tool_result]; the conversation was kept unchanged",
    );
    expect(input).toEqual(copy);
  });

  it("is still the engine itself: instanceof ContextEngine, its own class, its private fields working", async () => {
    const host = await hostWith({});
    expect(host.engine).toBeInstanceOf(ContextEngine);
    expect(host.engine.constructor.name).toBe("Orphaning");
    await host.engine.compress(conversation()).catch(() => undefined);
    expect((host.engine as unknown as { calls: number }).calls).toBe(1);
  });

  it("hands the output on unchecked with context.validate_output: false", async () => {
    const host = await hostWith({ validate_output: false });
    const output = await host.engine.compress(conversation());
    expect(output.map((m) => m.role)).toEqual(["system", "user", "tool"]);
  });

  it("lets an output that keeps a problem its input already had through (a tool call still running)", async () => {
    const host = await hostWith({});
    const running = conversation().slice(0, 5);
    // the last message is the running call: the output keeps that very problem and adds none
    await expect(host.engine.compress(running)).resolves.toHaveLength(3);
  });

  it("a CompactionSession on the host reports the refusal as an aborted compaction, the conversation kept", async () => {
    const host = await hostWith({});
    const store = openSqliteStore(":memory:");
    const session = new CompactionSession({ host, store, platform: "cli" });
    session.append(conversation());
    const result = await session.maybeCompress({ force: true });
    expect(result.outcome).toBe("aborted");
    expect(result.reason).toMatch(/^engine 'orphaning' returned a conversation a provider would reject: .*\[orphan_tool_result\]; the conversation was kept unchanged$/);
    expect(session.messages()).toEqual(conversation());
  });

  it("never trips on the built-in compressor, which repairs tool pairs itself", async () => {
    const host = await createContextHost({ rootDir: tempProject({}, "ce-output-") });
    const turns: ChatMessage[] = [{ role: "system", content: "sys" }];
    for (let i = 0; i < 30; i++) {
      turns.push({ role: "user", content: `step ${i}: ${"words ".repeat(60)}` });
      turns.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "bash", arguments: `{"command":"cat f${i}.txt"}` } }] });
      turns.push({ role: "tool", tool_call_id: `call_${i}`, content: "output ".repeat(80) });
    }
    const output = await host.engine.compress(turns, { force: true });
    expect(output.length).toBeLessThan(turns.length);
  });

  it("checks an engine instance two hosts hand out by the later host's setting, never twice", async () => {
    const engine = new (class Plain extends ContextEngine {
      readonly name = "plain";
      shouldCompress(): boolean {
        return true;
      }
      async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        return [messages[0]!, messages[1]!, ...messages.slice(-1)];
      }
    })();
    const own = engine.compress;
    checkEngineOutput(engine, true);
    const checked = engine.compress;
    checkEngineOutput(engine, true);
    // the second check wraps the engine's own compress again, not the first check
    expect(engine.compress).not.toBe(checked);
    expect((engine as unknown as Record<symbol, unknown>)[Symbol.for("@context-engine/core.uncheckedCompress")]).toBe(own);
    await expect(engine.compress(conversation())).rejects.toThrow(InvalidEngineOutputError);
    checkEngineOutput(engine, false);
    expect(engine.compress).toBe(own);
    expect(Object.keys(engine)).not.toContain("compress");
    await expect(engine.compress(conversation())).resolves.toHaveLength(3);
  });
});
