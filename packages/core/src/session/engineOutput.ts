/**
 * The check every engine's `compress()` output passes before it is stored as the conversation, in the
 * words of the host's refusal (engine/invalidOutput.ts does the checking).
 */
import type { ChatMessage } from "../messages/schema.js";
import { InvalidEngineOutputError, invalidEngineOutput } from "../engine/invalidOutput.js";

/**
 * Why `output` of engine `engineName` must not replace `input`, in words that name the engine and the
 * problem (message index and field); undefined when it may be stored.
 */
export function engineOutputProblem(engineName: string, input: ChatMessage[], output: unknown): string | undefined {
  const invalid = invalidEngineOutput(engineName, input, output);
  return invalid === undefined ? undefined : new InvalidEngineOutputError(engineName, invalid).message;
}
