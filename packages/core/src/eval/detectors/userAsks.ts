/**
 * The user's asks: what a person typed, without what the harness put in the user turn. From the corpus:
 * Claude Code's `<system-reminder>`, `<local-command-caveat>`, `<command-name>`/`<command-message>`/
 * `<command-args>`, `<local-command-stdout>` blocks, "[Request interrupted by user…]", "[Image #5]" and
 * "[Image: source: …]" placeholders, "Stop hook feedback:", SWE-agent's "Here is a demonstration of how …" and "This is a session continuation summary"
 * turns; and the observations text-format agents (SWE-agent without function calling) return as user
 * turns after an action block. The eval's own reading: it shares no code with the summarizers. Pure.
 */

/** Blocks the harness injects into a user turn. */
const INJECTED = [
  /<system-reminder>[\s\S]*?<\/system-reminder>/g,
  /<local-command-caveat>[\s\S]*?<\/local-command-caveat>/g,
  /<local-command-stdout>[\s\S]*?<\/local-command-stdout>/g,
  /<local-command-stderr>[\s\S]*?<\/local-command-stderr>/g,
  /<command-(?:name|message|args)>[\s\S]*?<\/command-(?:name|message|args)>/g,
  /\[Request interrupted by user[^\]]*\]/g,
  /\[Image(?: #\d+|: [^\]]*)\]/g,
];

/** User turns the harness wrote whole. */
const HARNESS_TURN = /^(?:Stop hook feedback:|This is a session continuation summary|This session is being continued from a previous conversation|Caveat: The messages below|Observation:|OBSERVATION:|EXECUTION RESULT|\[File: |Your proposed edit has introduced|Here is a demonstration of how)/;

/** The typed text of a user turn with the injected blocks removed, whitespace trimmed. */
export function typedText(text: string): string {
  let out = text;
  for (const pattern of INJECTED) out = out.replace(pattern, " ");
  return out.trim();
}

/**
 * The ask of a user turn, or undefined when it holds none. `afterTextAction` says the turn follows an
 * assistant turn that acted by writing a fenced block rather than a tool call: such a turn is the
 * environment's answer (an observation), not the user.
 */
export function userAsk(text: string, afterTextAction: boolean): string | undefined {
  if (afterTextAction) return undefined;
  const typed = typedText(text);
  if (typed === "" || HARNESS_TURN.test(typed)) return undefined;
  return typed;
}
