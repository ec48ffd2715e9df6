/**
 * The host's notice after a compaction (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see"):
 * with `compression.compaction_notice` on, one line saying what was compacted and which tool reads it back
 * is appended to the text of the next user turn (never to a tool result: tool pairs stay as they are).
 * Also the options a pending `compact_context` request turns the next compaction into.
 */
import type { ContextEngine } from "../engine/ContextEngine.js";
import { requestedCompression, type AgentCompactionRequest } from "../engine/compactContextTool.js";
import { lastCompactionOf, noticeSince, userTurnWithNotice, type LastCompaction } from "../engine/lastCompaction.js";
import type { CompactionSessionOptions, MaybeCompressOptions } from "./types.js";

/** Whether a session appends the notice: its own option, else its host's `compression.compaction_notice`, else the engine's, else off. */
export function compactionNoticeEnabled(options: Pick<CompactionSessionOptions, "compactionNotice" | "host">, engine: ContextEngine): boolean {
  const engineSetting = (engine as { compression?: { compaction_notice?: unknown } }).compression?.compaction_notice;
  return options.compactionNotice ?? options.host?.config?.compression.compaction_notice ?? (typeof engineSetting === "boolean" ? engineSetting : false);
}

/** A manual compaction (`force`) with the request's focus, unless the caller gave its own topic. */
export function requestedCompressOptions(options: MaybeCompressOptions, request: AgentCompactionRequest): MaybeCompressOptions {
  return { ...options, ...requestedCompression(request), ...(options.focusTopic === undefined ? {} : { focusTopic: options.focusTopic }) };
}

/** The notice waiting for the next user turn of one conversation. */
export class PendingCompactionNotice {
  /** The notice not yet appended, if any. */
  text: string | undefined;

  constructor(readonly enabled: boolean) {}

  /** After a compaction of `sessionId`: the notice for `engine`'s last compaction of it, when it reports one newer than `before`. */
  afterCompaction(engine: ContextEngine, before: LastCompaction | undefined, sessionId?: string): string | undefined {
    if (!this.enabled) return undefined;
    return (this.text = noticeSince(before, lastCompactionOf(engine, sessionId)));
  }

  /** `messages` with the pending notice appended to their first user turn (then it is no longer pending). */
  attach<M extends { role: string; content: unknown }>(messages: readonly M[]): M[] {
    const at = this.text === undefined ? -1 : messages.findIndex((m) => m.role === "user");
    if (at < 0) return [...messages];
    const out = [...messages];
    out[at] = userTurnWithNotice(out[at]!, this.text!);
    this.text = undefined;
    return out;
  }
}

