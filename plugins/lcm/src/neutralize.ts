/**
 * The deterministic fallback summary is raw source text (user turns, tool outputs, web pages the agent
 * read). Put back in front of the model as a summary, an instruction hidden in it would read like one of
 * ours. Such sentences and lines are left out of the fallback text, with a note; the original stays
 * stored and lcm_expand shows it.
 */

/** What replaces a sentence or line that reads like an instruction to the model. */
export const LEFT_OUT_NOTE = "[instruction-like text left out; lcm_expand shows the original]";

/** Sentences that address the model: overriding its instructions, giving it a new role, asking for its prompt. */
const INSTRUCTION_SENTENCES: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,60}?\b(?:previous|prior|above|earlier|preceding|all|any|your|the|these|those|system)\b[^.!?\n]{0,40}?\b(?:instructions?|prompts?|rules?|directions?|guidelines?|messages?|context|constraints?)\b/i,
  /\byou are now\b/i,
  /\bfrom now on,?\s+(?:you|act|respond|behave|answer)\b/i,
  /\bpretend (?:to be|that you are|you are)\b/i,
  /\bnew (?:system )?instructions?\s*:/i,
  /\b(?:reveal|print|show|repeat|output)\b[^.!?\n]{0,30}\b(?:system prompt|hidden instructions|your instructions)\b/i,
];

/** Lines shaped like a prompt's framing: a system/developer role label, chat-template tokens, system tags. */
const INSTRUCTION_LINES: readonly RegExp[] = [
  /^\s*(?:#+\s*)?(?:system|developer)(?:\s+(?:prompt|message|instructions?|note))?\s*:/i,
  /^\s*\[(?:system|inst|\/inst|sys)\]/i,
  /<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>/i,
  /^\s*<\/?(?:system|instructions?|system-reminder|sys)\b[^>]*>/i,
];

/** The `[USER #12]: ` label lcm puts before each source message in the fallback text. */
const SOURCE_LABEL = /^\[[A-Z]+ #\d+\]: /;

function cleanLine(line: string): string {
  const label = SOURCE_LABEL.exec(line)?.[0] ?? "";
  const body = line.slice(label.length);
  if (INSTRUCTION_LINES.some((pattern) => pattern.test(body))) return label + LEFT_OUT_NOTE;
  if (!INSTRUCTION_SENTENCES.some((pattern) => pattern.test(body))) return line;
  const sentences = body.split(/(?<=[.!?])\s+/);
  const kept: string[] = [];
  for (const sentence of sentences) {
    const drop = INSTRUCTION_SENTENCES.some((pattern) => pattern.test(sentence));
    if (!drop) kept.push(sentence);
    else if (kept.at(-1) !== LEFT_OUT_NOTE) kept.push(LEFT_OUT_NOTE);
  }
  return label + kept.join(" ");
}

/**
 * `text` with every sentence that reads like an instruction to the model ("ignore previous
 * instructions", "you are now …", "from now on you …", "new instructions:") and every prompt-framing line
 * (`system:` labels, `<|im_start|>` tokens, `<system>` tags) replaced by {@link LEFT_OUT_NOTE}.
 */
export function neutralizeInstructions(text: string): string {
  return text.split("\n").map(cleanLine).join("\n");
}
