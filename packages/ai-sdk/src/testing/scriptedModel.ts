/** The scripted model of the AI SDK test kit: the AI SDK's own `MockLanguageModelV3` answering turn by turn. */
import { MockLanguageModelV3 } from "ai/test";
import type { ScriptedTurn } from "@context-engine/core/conformance";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

/** One call the scripted model received: the prompt and the tools offered. */
export interface ScriptedCall {
  prompt: CallOptions["prompt"];
  tools: string[];
  promptTokens: number;
  toolCalls: string[];
}

/** A `MockLanguageModelV3` that answers the i-th call with `script[i]` and records each call in `calls`; past the script it throws. */
export function scriptedLanguageModel(script: readonly ScriptedTurn[], calls: ScriptedCall[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "context-engine-testing",
    modelId: "scripted-model",
    doGenerate: async (options): Promise<GenerateResult> => {
      const turn = script[calls.length];
      if (turn === undefined) throw new Error(`the scripted model has ${script.length} turn(s) and was called again (call ${calls.length + 1})`);
      const promptTokens = turn.promptTokens ?? 10;
      const toolCalls = (turn.toolCalls ?? []).map((call, i) => ({
        type: "tool-call" as const,
        toolCallId: `call_${calls.length + 1}_${i + 1}`,
        toolName: call.name,
        input: JSON.stringify(call.input),
      }));
      calls.push({ prompt: options.prompt, tools: (options.tools ?? []).map((t) => t.name).sort(), promptTokens, toolCalls: toolCalls.map((c) => c.toolName) });
      return {
        content: [...(turn.text ? [{ type: "text" as const, text: turn.text }] : []), ...toolCalls],
        finishReason: { unified: toolCalls.length > 0 ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: promptTokens, noCache: promptTokens, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 10, text: 10, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}
