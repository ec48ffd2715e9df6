/**
 * The check every engine's `compress()` output passes before it is stored as the conversation: a
 * list of chat messages that adds no provider-rule problem the input did not have (validateConversation).
 */
import { InvalidMessagesError, parseMessages, type ChatMessage } from "../messages/schema.js";
import { problemsIntroduced } from "../messages/validate.js";

/** How many problems one refusal lists before "and N more". */
const LISTED_PROBLEMS = 3;

/**
 * Why `output` of engine `engineName` must not replace `input`, in words that name the engine and the
 * problem (message index and field); undefined when it may be stored.
 */
export function engineOutputProblem(engineName: string, input: ChatMessage[], output: unknown): string | undefined {
  const engine = `engine '${engineName}'`;
  if (!Array.isArray(output)) return `${engine} returned ${output === null ? "null" : typeof output} from compress(), not a list of messages; the conversation was kept unchanged`;
  let messages: ChatMessage[];
  try {
    messages = parseMessages(output, `the output of ${engine}`);
  } catch (error) {
    if (!(error instanceof InvalidMessagesError)) throw error;
    return `${engine} returned invalid messages; the conversation was kept unchanged. ${error.message}`;
  }
  const problems = problemsIntroduced(input, messages);
  if (problems.length === 0) return undefined;
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.message} [${p.code}]`);
  const more = problems.length > LISTED_PROBLEMS ? `; and ${problems.length - LISTED_PROBLEMS} more` : "";
  return `${engine} returned a conversation a provider would reject; the conversation was kept unchanged: ${listed.join("; ")}${more}`;
}
