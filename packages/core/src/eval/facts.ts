/**
 * The facts of a stretch of conversation an agent needs after compaction: file paths (tool-call path
 * arguments and paths in user and assistant text), real errors (error signatures of command output and
 * pasted text, failed exits, refused tool calls), commands run, the user's asks, and identifiers. The
 * one definition the eval, the summarizer tests and the fidelity bench measure with. Pure.
 */
import { isCompactionSummaryText } from "../messages/compactionMarker.js";
import type { ChatMessage, ToolCall } from "../messages/schema.js";
import { messageText } from "../messages/text.js";
import { toolCallKey } from "../messages/toolPairs.js";
import { errorSignatures, toolResultErrors } from "../facts/errorSignatures.js";
import { findIdentifiers } from "../facts/identifiers.js";
import { findPaths, normalizePath } from "../facts/paths.js";
import { readsContent, toolCallTarget } from "../facts/toolCallTargets.js";
import { observationIndexes, userAskOf, userWords } from "../facts/userAsks.js";

/** The kinds of fact, in report order. */
export const FACT_KINDS = ["path", "error", "command", "ask", "identifier"] as const;
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

/** The identifying form of a command: its first non-empty line, whitespace collapsed, at most {@link COMMAND_KEY_CHARS} characters. */
export function commandKey(command: string): string {
  const first = command.split("\n").find((line) => line.trim() !== "") ?? "";
  return flatten(first.replace(/\\\s*$/, "")).slice(0, COMMAND_KEY_CHARS).trimEnd();
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
    const key = normalizePath(path);
    this.add({ kind: "path", text: key, key });
  }

  identifiers(text: string): void {
    for (const name of findIdentifiers(text)) this.add({ kind: "identifier", text: name, key: name });
  }

  errors(text: string): number {
    const signatures = errorSignatures(text);
    for (const signature of signatures) this.add({ kind: "error", text: signature, key: errorKey(signature) });
    return signatures.length;
  }
}

/** True when a tool message is flagged as an error result (`is_error: true`, kept by the importers). */
export function isFlaggedError(message: ChatMessage): boolean {
  return (message as { is_error?: unknown }).is_error === true;
}

/** The error facts of one tool result (see toolResultErrors); a failed exit is tied to its command. */
function resultErrorFacts(list: FactList, message: ChatMessage, call: ToolCall | undefined): void {
  if (call !== undefined && readsContent(call.function.name, call.function.arguments)) return;
  const errors = toolResultErrors(messageText(message), isFlaggedError(message));
  for (const signature of errors.signatures) list.add({ kind: "error", text: signature, key: errorKey(signature) });
  const command = call ? toolCallTarget(call.function.name, call.function.arguments).command : undefined;
  if (errors.failedExit !== undefined && command !== undefined) {
    const anchor = commandKey(command);
    list.add({ kind: "error", text: `${anchor} → exit ${errors.failedExit}`, key: `exit ${errors.failedExit}`, anchor });
  }
}

/** The facts of `messages` (oldest first), each once per kind; compaction summaries among them are skipped. */
export function extractFacts(messages: readonly ChatMessage[]): Fact[] {
  const list = new FactList();
  const calls = new Map<string, ToolCall>();
  for (const message of messages) for (const call of message.tool_calls ?? []) calls.set(toolCallKey(call), call);
  const observations = observationIndexes(messages);
  messages.forEach((message, index) => {
    const text = messageText(message);
    if (isCompactionSummaryText(text.trimStart())) return; // ours (signed); a real turn that starts with the tag counts
    if (message.role === "user") {
      const ask = userAskOf(message, observations.has(index));
      if (ask !== undefined) {
        const words = askWords(ask);
        if (words.length >= MIN_ASK_WORDS) list.add({ kind: "ask", text: flatten(ask), key: words.join(" ") });
        for (const path of findPaths(ask)) list.path(path);
        list.identifiers(ask);
      }
      list.errors(ask ?? userWords(text));
    } else if (message.role === "assistant") {
      for (const path of findPaths(text)) list.path(path);
      list.identifiers(text);
      for (const call of message.tool_calls ?? []) {
        const target = toolCallTarget(call.function.name, call.function.arguments);
        for (const path of target.paths) list.path(path);
        if (target.command !== undefined) list.add({ kind: "command", text: commandKey(target.command), key: commandKey(target.command) });
        list.identifiers(call.function.arguments);
      }
    } else if (message.role === "tool") {
      const call = message.tool_call_id !== undefined ? calls.get(message.tool_call_id) : undefined;
      resultErrorFacts(list, message, call);
      list.identifiers(text);
    }
  });
  return list.facts;
}
