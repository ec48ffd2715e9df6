/** The scripted model of the LangChain test kit: LangChain's own `fakeModel()` answering turn by turn. */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { ScriptedTurn } from "@context-engine/core/conformance";

/** One call the scripted model received: the messages and the answer's prompt tokens and tool calls. */
export interface ScriptedCall {
  messages: BaseMessage[];
  promptTokens: number;
  toolCalls: string[];
}

/** The AI message a scripted turn answers with (call ids `call_<turn>_<n>`, usage as `usage_metadata`). */
function answer(turn: ScriptedTurn, index: number): AIMessage {
  const promptTokens = turn.promptTokens ?? 10;
  return new AIMessage({
    content: turn.text ?? "",
    tool_calls: (turn.toolCalls ?? []).map((call, i) => ({ id: `call_${index + 1}_${i + 1}`, name: call.name, args: call.input, type: "tool_call" as const })),
    usage_metadata: { input_tokens: promptTokens, output_tokens: 10, total_tokens: promptTokens + 10 },
  });
}

/** A `fakeModel()` that answers the i-th call with `script[i]` and records each call in `calls`; past the script it throws. */
export function scriptedChatModel(script: readonly ScriptedTurn[], calls: ScriptedCall[]): ReturnType<typeof fakeModel> {
  const model = fakeModel();
  script.forEach((turn, index) =>
    model.respond((messages) => {
      calls.push({ messages: [...messages], promptTokens: turn.promptTokens ?? 10, toolCalls: (turn.toolCalls ?? []).map((c) => c.name) });
      return answer(turn, index);
    }),
  );
  return model;
}
