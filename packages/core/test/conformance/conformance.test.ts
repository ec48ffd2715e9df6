import { describe, expect, it } from "vitest";
import { runConformance } from "../../src/conformance/index.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";

/** An engine that breaks the contract: it mutates its input and drops tool results, leaving orphan calls. */
class CarelessEngine extends ContextEngine {
  readonly name = "careless";
  shouldCompress(t: number = this.lastPromptTokens): boolean {
    return t > this.thresholdTokens; // off by one: does not fire at the threshold
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    messages.push({ role: "user", content: "mutated" });
    return messages.filter((m) => m.role !== "tool");
  }
}

describe("runConformance", () => {
  it("passes the built-in compressor on every check", async () => {
    const report = await runConformance(() => new ContextCompressor());
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.engine).toBe("compressor");
    expect(report.passed).toBeGreaterThanOrEqual(12);
  });

  it("names each broken promise of a careless engine", async () => {
    const report = await runConformance(() => new CarelessEngine());
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.name);
    expect(failed).toContain("shouldCompress fires at the threshold and not below it");
    expect(failed.some((n) => n.startsWith("compress keeps"))).toBe(true);
    expect(report.checks.find((c) => c.name.includes("long agent session"))?.detail).toBe("the input messages were mutated");
  });

  it("names an engine that offers per-session usage but answers with the latest of any session", async () => {
    class MixedUpEngine extends CarelessEngine {
      override lastPromptTokensOf(_sessionId: string): number {
        return this.lastPromptTokens;
      }
    }
    const mixedUp = await runConformance(() => new MixedUpEngine());
    const check = "an engine that keeps usage per session (lastPromptTokensOf) keeps each session's apart";
    expect(mixedUp.checks.find((c) => c.name === check)).toMatchObject({ ok: false, detail: "lastPromptTokensOf gave 700 and 700, expected 3000 and 700" });
    // an engine without it passes (the method is optional), as does the built-in compressor that keeps them
    expect((await runConformance(() => new CarelessEngine())).checks.find((c) => c.name === check)?.ok).toBe(true);
    expect((await runConformance(() => new ContextCompressor())).checks.find((c) => c.name === check)?.ok).toBe(true);
  });

  it("names an engine that keeps the ask's words but drops its image, or the results of the step the agent is in", async () => {
    class ForgetfulEngine extends ContextCompressor {
      override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        const ask = messages.findLast((m) => m.role === "user")!;
        return [messages[0]!, { role: "user", content: typeof ask.content === "string" ? ask.content : "[image]" }];
      }
    }
    const report = await runConformance(() => new ForgetfulEngine());
    const detail = (scenario: string) => report.checks.find((c) => c.name.includes(scenario))?.detail;
    expect(detail("a latest ask that is only an image")).toBe("the image of the latest user message is gone");
    expect(detail("mid-turn")).toBe("the newest tool result call_now_0 (the step the agent is in) is gone or changed");
    expect(detail("long agent session")).toBeUndefined();
  });

  it("refuses a prepareCompression that makes the caller wait, and passes the built-in one with prepare_at set", async () => {
    class WaitingEngine extends ContextCompressor {
      override prepareCompression(): never {
        return Promise.resolve({ state: "ready" }) as never;
      }
    }
    const waiting = await runConformance(() => new WaitingEngine());
    expect(waiting.checks.find((c) => c.name.startsWith("prepareCompression"))?.detail).toMatch(/returned a promise/);
    const preparing = await runConformance(() => new ContextCompressor({ compression: { prepare_at: 0.8 } }));
    expect(preparing.checks.filter((c) => !c.ok)).toEqual([]);
  });

    it("reports a factory that shares one instance", async () => {
    const shared = new CarelessEngine();
    const report = await runConformance(() => shared);
    expect(report.checks.find((c) => c.name === "each factory call returns a new instance")?.ok).toBe(false);
  });

  it("reports a factory that returns something else instead of throwing", async () => {
    const report = await runConformance(() => ({}) as never);
    expect(report.failed).toBe(report.checks.length);
  });
});
