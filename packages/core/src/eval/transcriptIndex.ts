/**
 * Which messages of an engine's output are the transcript's and which the engine made: matched by object
 * identity first, then by content (engines may copy messages), with the transcript texts an engine-made
 * message carries (a summary merged into a kept message) told apart from what it adds. Used by the
 * fidelity eval to find what a compaction removed and what the engine wrote. Pure but for its caches.
 */
import type { ChatMessage } from "../messages/schema.js";
import { canonicalJson } from "../messages/canonicalJson.js";
import { messageText } from "../messages/text.js";

/** A message's identity for matching engine output against the transcript (engines may copy messages). */
function fingerprint(message: ChatMessage): string {
  return canonicalJson({ role: message.role, content: message.content, tool_calls: message.tool_calls, tool_call_id: message.tool_call_id });
}

/** Transcript texts shorter than this are not looked for inside engine messages; their first and last this many characters find them. */
const MIN_EMBEDDED_CHARS = 20;

/** Tells transcript messages from engine-made ones, matching by identity first and content second. */
export class TranscriptIndex {
  private readonly byObject = new Map<ChatMessage, number>();
  private readonly byPrint = new Map<string, number>();
  private readonly prints = new WeakMap<ChatMessage, string>();
  private readonly byHead = new Map<string, string[]>();
  private readonly byTail = new Map<string, string[]>();
  /** The transcript text of the message that makes or answers each tool call. */
  private readonly callTexts = new Map<string, string>();

  constructor(transcript: readonly ChatMessage[]) {
    transcript.forEach((message, index) => {
      this.byObject.set(message, index);
      const print = this.print(message);
      if (!this.byPrint.has(print)) this.byPrint.set(print, index);
      const text = messageText(message);
      for (const id of callIdsOf(message)) if (!this.callTexts.has(id)) this.callTexts.set(id, text);
      if (text.length < MIN_EMBEDDED_CHARS) return;
      push(this.byHead, text.slice(0, MIN_EMBEDDED_CHARS), text);
      push(this.byTail, text.slice(-MIN_EMBEDDED_CHARS), text);
    });
  }

  print(message: ChatMessage): string {
    let print = this.prints.get(message);
    if (print === undefined) this.prints.set(message, (print = fingerprint(message)));
    return print;
  }

  /** The transcript index of `message`, or undefined when the engine made it. */
  indexOf(message: ChatMessage): number | undefined {
    return this.byObject.get(message) ?? this.byPrint.get(this.print(message));
  }

  /** True for an engine-made copy of a transcript message (a cleared tool output, truncated call arguments). */
  isRewrite(message: ChatMessage): boolean {
    if (message.role === "tool") return message.tool_call_id !== undefined && this.callTexts.has(message.tool_call_id);
    const calls = message.tool_calls ?? [];
    return calls.length > 0 && calls.every((call) => this.callTexts.has(call.id));
  }

  /** The transcript text of the message a rewrite copies (found by its tool-call ids). */
  rewrittenText(message: ChatMessage): string | undefined {
    const [id] = callIdsOf(message);
    return id === undefined ? undefined : this.callTexts.get(id);
  }

  /**
   * The text an engine-made message adds, and the transcript texts it carries: a transcript message it
   * starts with (a system prompt with a note appended, a summary merged after the text of a kept message
   * with tool calls) or ends with (a summary merged into the first kept message) is kept, not added.
   */
  split(message: ChatMessage): { added: string; carried: string[]; extendsRewrite: boolean } {
    let text = messageText(message);
    const carried: string[] = [];
    const copied = this.isRewrite(message) ? this.rewrittenText(message) : undefined;
    // a kept message with tool calls that the engine wrote its summary into (before or after its own text)
    const extendsRewrite = copied !== undefined && text.length > copied.length && (text.startsWith(copied) || text.endsWith(copied));
    if (extendsRewrite && copied !== "") {
      text = text.startsWith(copied) ? text.slice(copied.length) : text.slice(0, text.length - copied.length);
      carried.push(copied);
    }
    const head = carried.length > 0 ? undefined : (this.byHead.get(text.slice(0, MIN_EMBEDDED_CHARS)) ?? []).find((t) => t.length < text.length && text.startsWith(t));
    if (head !== undefined) {
      text = text.slice(head.length);
      carried.push(head);
    }
    const tail = (this.byTail.get(text.slice(-MIN_EMBEDDED_CHARS)) ?? []).find((t) => t.length < text.length && text.endsWith(t));
    if (tail !== undefined) {
      text = text.slice(0, text.length - tail.length);
      carried.push(tail);
    }
    return { added: text, carried, extendsRewrite };
  }
}

/** The tool-call ids a message answers or makes. */
export function callIdsOf(message: ChatMessage): string[] {
  return message.role === "tool" ? (message.tool_call_id !== undefined ? [message.tool_call_id] : []) : (message.tool_calls ?? []).map((call) => call.id);
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
