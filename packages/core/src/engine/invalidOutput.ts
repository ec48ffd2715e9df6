/**
 * The check every engine's `compress()` output passes before anyone uses it as the conversation: a list
 * of chat messages that adds no provider-rule problem the input did not have (validateConversation), and
 * the error the host throws for one that fails (docs/BEHAVIOUR.md, "Invalid output").
 */
import { InvalidMessagesError, parseMessages, type ChatMessage } from "../messages/schema.js";
import { problemsIntroduced, type ConversationProblem } from "../messages/validate.js";

/** How many problems one refusal lists before "and N more". */
const LISTED_PROBLEMS = 3;

/** Why an engine's output may not replace its input. */
export interface InvalidOutput {
  /** The provider-rule problems the output adds, by message index (empty when it is no list of messages). */
  problems: ConversationProblem[];
  /** The refusal in words: the engine, then the first problems with their message index and code. */
  text: string;
}

/** True when `output` holds the very messages of `input`, in order: nothing to check. */
function sameMessages(input: readonly ChatMessage[], output: readonly unknown[]): boolean {
  return output === input || (output.length === input.length && output.every((m, i) => m === input[i]));
}

/**
 * Why `output` of engine `engineName` must not replace `input` (not a list, messages that do not parse, or
 * a provider-rule problem the input did not have); undefined when it may be used.
 */
export function invalidEngineOutput(engineName: string, input: ChatMessage[], output: unknown): InvalidOutput | undefined {
  const engine = `engine '${engineName}'`;
  if (!Array.isArray(output)) return { problems: [], text: `${engine} returned ${output === null ? "null" : typeof output} from compress(), not a list of messages` };
  if (sameMessages(input, output)) return undefined;
  let messages: ChatMessage[];
  try {
    messages = parseMessages(output, `the output of ${engine}`);
  } catch (error) {
    if (!(error instanceof InvalidMessagesError)) throw error;
    return { problems: [], text: `${engine} returned invalid messages: ${error.message}` };
  }
  const problems = problemsIntroduced(input, messages);
  if (problems.length === 0) return undefined;
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.message} [${p.code}]`);
  const more = problems.length > LISTED_PROBLEMS ? `; and ${problems.length - LISTED_PROBLEMS} more` : "";
  return { problems, text: `${engine} returned a conversation a provider would reject: ${listed.join("; ")}${more}` };
}

/**
 * Thrown by the engine a host hands out (`host.engine.compress`) when the output breaks provider rules
 * (`context.validate_output`, on by default); the caller's conversation is left as it was.
 */
export class InvalidEngineOutputError extends Error {
  override readonly name = "InvalidEngineOutputError";
  /** The engine that returned the output. */
  readonly engine: string;
  /** Every problem the output adds, sorted by message index (empty when it is no list of messages). */
  readonly problems: ConversationProblem[];
  /** The first problem, and the index of the output message it is at. */
  readonly problem: ConversationProblem | undefined;
  readonly messageIndex: number | undefined;

  constructor(engine: string, invalid: InvalidOutput) {
    super(`${invalid.text}; the conversation was kept unchanged`);
    this.engine = engine;
    this.problems = invalid.problems;
    this.problem = invalid.problems[0];
    this.messageIndex = this.problem?.index;
  }
}
