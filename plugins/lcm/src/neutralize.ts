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
  // jailbreak personas and modes: DAN ("do anything now"), jailbroken, unrestricted or developer mode
  /\bDAN\b/,
  /\bdo anything now\b/i,
  /\bjailbr(?:eak|eaks|oken)\b/i,
  /\b(?:unrestricted|unfiltered|uncensored|developer|god|evil)\s+mode\b/i,
  // standing orders for later turns: "answer every future user as …", "for all subsequent messages …"
  /\b(?:answer|respond|reply|talk|speak|act|behave|treat|address)\b[^.!?\n]{0,40}?\b(?:every|all|any|each)\s+(?:future|subsequent|following|later|next)\b/i,
  /\b(?:in|for|from)\s+(?:all|every|any|each)\s+(?:future|subsequent|later)\s+(?:turns?|messages?|responses?|answers?|replies|conversations?|sessions?|users?|requests?)\b/i,
  // lifting the model's limits: "you have no restrictions", "without any filters", "do not follow your guidelines"
  /\byou (?:have|are under|are bound by|follow) no (?:restrictions|rules|limits|limitations|filters|guidelines|policies)\b/i,
  /\bwithout any (?:restrictions|filters|limitations|censorship|guidelines|rules)\b/i,
  /\b(?:do not|don't|never|stop)\s+(?:follow|obey|apply|adhere to)\b[^.!?\n]{0,30}\b(?:instructions|rules|guidelines|policies|system prompt)\b/i,
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
 * instructions", "you are now …", "from now on you …", "new instructions:", a jailbreak persona or mode
 * such as DAN, a standing order for later turns, lifting the model's limits) and every prompt-framing line
 * (`system:` labels, `<|im_start|>` tokens, `<system>` tags) replaced by {@link LEFT_OUT_NOTE}.
 */
export function neutralizeInstructions(text: string): string {
  return text.split("\n").map(cleanLine).join("\n");
}
