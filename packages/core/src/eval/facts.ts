/**
 * The facts of a stretch of conversation an agent needs after compaction: file paths (tool-call path
 * arguments and paths in user and assistant text and commands), real errors (error lines of command
 * output and pasted text, non-zero exits, refused tool calls), the commands run (their distinctive step),
 * the user's asks, and identifiers. Read with the eval's own detectors (./detectors/), written from the
 * corpus transcripts; they share no code with the summarizers or src/facts/ (test/dependencies.test.ts
 * fails when either side imports the other). The one definition the eval and the fidelity bench measure
 * with. Pure.
 */
import { isCompactionSummaryText } from "../messages/compactionMarker.js";
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { messageText } from "../messages/text.js";
import { distinctiveCommand, exitAnswersNo, isReadCommand, textAction } from "./detectors/commands.js";
import { errorLines, failedExit } from "./detectors/errors.js";
import { identifiersIn } from "./detectors/identifiers.js";
import { canonicalPath, pathsIn } from "./detectors/paths.js";
import { readToolCall } from "./detectors/toolCall.js";
import { userAsk } from "./detectors/userAsks.js";

/** The kinds of fact, in report order. */
/** `command` is a command that acts (writes, builds, tests, installs, moves, deletes, commits); `read` one that only looks (see detectors/commands.ts). */
export const FACT_KINDS = ["path", "error", "command", "read", "ask", "identifier"] as const;
/** One kind of fact. */
export type FactKind = (typeof FACT_KINDS)[number];

/** One fact and how its survival is checked (see survival.ts). */
export interface Fact {
  kind: FactKind;
  /** The fact as shown in reports. */
  text: string;
  /** What must appear in a text for the fact to survive (normalized; asks: their distinctive words joined by spaces). */
  key: string;
  /** Failed exits: the command (its key) that must share a line with `key` ("exit 1"). */
  anchor?: string;
}

/** Characters of a command's first line that identify it. */
export const COMMAND_KEY_CHARS = 60;
/** Characters of an error signature that identify it. */
export const ERROR_KEY_CHARS = 80;

/** Collapses whitespace runs to one space and trims. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The identifying form of a command: its distinctive step (see detectors/commands.ts), at most {@link COMMAND_KEY_CHARS} characters. */
export function commandKey(command: string): string {
  return flatten(distinctiveCommand(command) ?? "").slice(0, COMMAND_KEY_CHARS).trimEnd();
}

/** The identifying form of an error signature: its first {@link ERROR_KEY_CHARS} characters without a trailing "…". */
export function errorKey(signature: string): string {
  return flatten(signature).replace(/…$/, "").slice(0, ERROR_KEY_CHARS).trimEnd();
}

const STOPWORDS = new Set(
  ("about above after again against also always another anything around away back because been before being below between both could " +
    "didn dont does doesn doing done down during each either else even every everything few from further going gonna have having here " +
    "hers herself himself into isnt itself just keep know last lets like look looks made make many maybe mean might more most much must " +
    "need needs never next nothing okay once only other ought ours ourselves over please pretty quite rather really right same seem seems " +
    "should since some something still such sure take than thank thanks that thats their theirs them themselves then there these they thing " +
    "things think this those though through thus together very want wanna wants well were what whatever when where whether which while " +
    "will with within without wont would yeah your yours yourself also hmm hmmm uhh umm yup yeah okay cool great nice good shall youre " +
    "theyre were weve thing can't won't don't it's let's i'm i've i'll we're we'll you'll").split(/\s+/),
);
/** Distinctive words taken from an ask. */
export const ASK_WORDS = 12;
/** Asks with fewer distinctive words say too little to check and are not counted. */
export const MIN_ASK_WORDS = 2;

/** Lowercase words of `text` (letters, digits, `_`, `'`, `-` inside), as the ask check compares them. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9_'-]*[a-z0-9]|[a-z0-9]/g) ?? []).map((w) => w.replace(/'s$/, ""));
}

/** The first {@link ASK_WORDS} distinctive words of an ask: at least 4 characters, not a stopword, not a number, each once. */
export function askWords(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) {
    if (word.length < 4 || STOPWORDS.has(word) || /^\d+$/.test(word) || out.includes(word)) continue;
    out.push(word);
    if (out.length >= ASK_WORDS) break;
  }
  return out;
}

/** Collects facts, each once per kind and key. */
class FactList {
  readonly facts: Fact[] = [];
  private readonly seen = new Set<string>();

  add(fact: Fact): void {
    if (fact.key === "") return;
    const id = `${fact.kind}\u0000${fact.key}\u0000${fact.anchor ?? ""}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.facts.push(fact);
  }

  path(path: string): void {
    const key = canonicalPath(path.trim());
    if (key.length >= 3) this.add({ kind: "path", text: key, key });
  }

  paths(text: string): void {
    for (const path of pathsIn(text)) this.path(path);
  }

  identifiers(text: string): void {
    for (const name of identifiersIn(text)) this.add({ kind: "identifier", text: name, key: name });
  }

  errors(text: string): void {
    for (const line of errorLines(text)) this.add({ kind: "error", text: line, key: errorKey(line) });
  }

  command(script: string): string | undefined {
    const key = commandKey(script);
    if (key === "") return undefined;
    this.add({ kind: isReadCommand(key) ? "read" : "command", text: key, key });
    for (const path of pathsIn(script)) this.path(path);
    return key;
  }

  /**
   * What a command printed: its error lines (unless it printed file content); a non-zero exit with no
   * error line to say why counts as one error, tied to its command — but for a search, `diff` or `test`
   * whose exit 1 only answers "no" (see detectors/commands.ts).
   */
  output(text: string, command: string | undefined, showsContent: boolean): void {
    const before = this.facts.length;
    if (!showsContent) this.errors(text);
    else for (const match of text.matchAll(/<tool_use_error>[\s\S]*?<\/tool_use_error>/g)) this.errors(match[0]);
    const explained = errorLines(showsContent ? "" : text).length > 0 || this.facts.length > before;
    const code = failedExit(text);
    if (code !== undefined && command !== undefined && !explained && !exitAnswersNo(command, code)) this.add({ kind: "error", text: `${command} → exit ${code}`, key: `exit ${code}`, anchor: command });
  }
}

/** True when a tool message is flagged as an error result (`is_error: true`, kept by the importers). */
export function isFlaggedError(message: ChatMessage): boolean {
  return (message as { is_error?: unknown }).is_error === true;
}

/** True when the transcript's agent acts by writing fenced blocks (no tool calls or tool results anywhere). */
function actsInText(messages: readonly ChatMessage[]): boolean {
  return !messages.some((m) => m.role === "tool" || (m.tool_calls?.length ?? 0) > 0);
}

/** The facts of `messages` (oldest first), each once per kind; compaction summaries among them are skipped. */
export function extractFacts(messages: readonly ChatMessage[]): Fact[] {
  const list = new FactList();
  const calls = new Map<string, ToolCall>();
  for (const message of messages) for (const call of message.tool_calls ?? []) calls.set(call.id, call);
  const textAgent = actsInText(messages);
  let lastAction: { command: string | undefined; showsContent: boolean } | undefined;
  messages.forEach((message) => {
    const text = messageText(message);
    if (isCompactionSummaryText(text.trimStart())) return; // ours (signed); a real turn that starts with the tag counts
    if (message.role === "user") {
      const observation = textAgent && lastAction !== undefined;
      const ask = userAsk(text, observation);
      if (ask !== undefined) {
        const words = askWords(ask);
        if (words.length >= MIN_ASK_WORDS) list.add({ kind: "ask", text: flatten(ask), key: words.join(" ") });
        list.paths(ask);
        list.identifiers(ask);
        list.errors(ask);
      } else if (observation) {
        list.output(text, lastAction!.command, lastAction!.showsContent);
        list.identifiers(text);
      }
      lastAction = undefined;
    } else if (message.role === "assistant") {
      const action = textAgent ? textAction(text) : undefined;
      const prose = action === undefined ? text : text.replace(/```[\w-]*\n[\s\S]*?```|<command>[\s\S]*?<\/command>/g, " ");
      list.paths(prose);
      list.identifiers(text);
      lastAction = action === undefined ? undefined : { command: list.command(action), showsContent: /^(open|goto|scroll_up|scroll_down|search_file|search_dir|find_file|cat|head|tail|sed -n|nl|ls|grep)\b/.test(action) };
      for (const call of message.tool_calls ?? []) {
        const reading = readToolCall(call.function.name, call.function.arguments);
        for (const path of reading.paths) list.path(path);
        if (reading.script !== undefined) list.command(reading.script);
        list.identifiers(call.function.arguments);
      }
    } else if (message.role === "tool") {
      const call = message.tool_call_id !== undefined ? calls.get(message.tool_call_id) : undefined;
      const reading = call ? readToolCall(call.function.name, call.function.arguments) : { paths: [], showsContent: false };
      const command = reading.script !== undefined ? commandKey(reading.script) || undefined : undefined;
      list.output(text, command, reading.showsContent && !isFlaggedError(message));
      list.identifiers(text);
    }
  });
  return list.facts;
}
