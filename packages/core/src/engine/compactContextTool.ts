/**
 * `compact_context`, the agent's request for a compaction
 * (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see"): an engine that offers it records the request per session; the host compacts at the next turn
 * boundary with the request's focus handed to the summarizer. At most once per `min_turns_between` turns
 * after a compaction (a turn is one model response the engine is told of); the tool's answer says when it
 * refuses and why, and what happens when it accepts. Pure but for {@link AgentCompactionRequests}, the
 * per-session record an engine keeps — with a store shared by workers (store/sharedState.ts), the pending
 * request is kept there too, so whichever worker takes the next turn honours it, once.
 */
import { z } from "zod";
import type { AgentCompactionRequest, CompressOptions, ToolSchema } from "./types.js";
import { zodToolSchema } from "./toolSchema.js";
import type { SharedStateStore } from "../store/sharedState.js";

/** The tool's name. */
export const COMPACT_CONTEXT_TOOL_NAME = "compact_context";

/** Characters a focus may have. */
export const COMPACT_FOCUS_MAX_CHARS = 500;

/** `compact_context` arguments. */
export const CompactContextArgsSchema = z.strictObject({
  focus: z
    .string()
    .trim()
    .min(1)
    .max(COMPACT_FOCUS_MAX_CHARS)
    .optional()
    .describe("What the summary of the older turns should keep in detail (a task, a file, a decision); omit for a general summary"),
});

/** The `compression.compact_tool` settings an engine offers the tool with. */
export interface CompactToolSettings {
  /** Offer the tool (default false: opt-in). */
  enabled: boolean;
  /** Model responses that must follow a compaction before the tool accepts again. */
  min_turns_between: number;
}

export type { AgentCompactionRequest } from "./types.js";

/** The schema offered to the agent. */
export function compactContextToolSchema(): ToolSchema {
  return zodToolSchema(
    COMPACT_CONTEXT_TOOL_NAME,
    "Ask for the conversation to be compacted before your next turn: older turns are replaced by a summary (kept in detail on `focus` when given) to free room in the context. Use it when a task is done or the context is filling with material you no longer need; it may refuse when a compaction was recent or there is nothing to compact.",
    CompactContextArgsSchema,
  );
}

/** What an engine knows when the tool is called, for the answer. */
export interface CompactRequestCheck {
  /** Why there is nothing to compact, when the engine can tell; undefined when there may be. */
  nothingToCompact?: string | undefined;
  /** The tool that reads compacted turns back (`session_search`, `lcm_expand`), when there is one. */
  recoveryTool?: string | undefined;
}

/** One session's record: turns since its last compaction (none yet: no wait), its last reported prompt tokens, and the pending request. */
interface SessionRecordOfRequests {
  turnsSinceCompaction: number | undefined;
  promptTokens: number;
  pending: AgentCompactionRequest | undefined;
  /** The pending request is in the shared store (then the store, not this record, says whether it is still pending). */
  shared: boolean;
}

/** The shared store's key of an engine's pending request of a session: the engine's name and this. */
export const COMPACT_REQUEST_KEY_SUFFIX = "#compact_request";

/** Where an engine keeps its requests beyond its process: a store workers share, under the engine's name. */
export interface SharedRequests {
  store: SharedStateStore;
  engine: string;
}

/** What the tool tells the agent. */
function answer(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}

/** The per-session requests of one engine: the tool's state, with the host's turn boundary as the only reader. */
export class AgentCompactionRequests {
  private readonly sessions = new Map<string, SessionRecordOfRequests>();
  /** The shared store's key of the requests. */
  private readonly key: string | undefined;

  /**
   * @param settings `compression.compact_tool`
   * @param shared a store shared by workers: a request is saved there, and taken from there at the turn boundary
   */
  constructor(
    readonly settings: CompactToolSettings,
    private readonly shared?: SharedRequests,
  ) {
    this.key = shared === undefined ? undefined : `${shared.engine}${COMPACT_REQUEST_KEY_SUFFIX}`;
  }

  private record(sessionId: string): SessionRecordOfRequests {
    let record = this.sessions.get(sessionId);
    if (record === undefined) this.sessions.set(sessionId, (record = { turnsSinceCompaction: undefined, promptTokens: 0, pending: undefined, shared: false }));
    return record;
  }

  /** A model response of `sessionId` (the engine's `updateFromResponse`) that reported `promptTokens`. */
  noteTurn(sessionId: string, promptTokens: number): void {
    const record = this.record(sessionId);
    record.promptTokens = promptTokens;
    if (record.turnsSinceCompaction !== undefined) record.turnsSinceCompaction++;
  }

  /** The prompt tokens `sessionId`'s last response reported (0 before any, and right after a compaction). */
  promptTokens(sessionId: string): number {
    return this.sessions.get(sessionId)?.promptTokens ?? 0;
  }

  /** `sessionId` was compacted (asked for or not): the wait starts again. */
  noteCompaction(sessionId: string): void {
    const record = this.record(sessionId);
    record.turnsSinceCompaction = 0;
    record.promptTokens = 0;
  }

  /** Turns the tool still refuses in `sessionId` (0: it accepts). */
  turnsLeft(sessionId: string): number {
    const since = this.sessions.get(sessionId)?.turnsSinceCompaction;
    return since === undefined ? 0 : Math.max(0, this.settings.min_turns_between - since);
  }

  /**
   * Runs the tool for `sessionId` with the agent's raw arguments: records the request (in the shared store
   * too, when there is one, before answering), or refuses (too soon, nothing to compact, bad arguments).
   * The answer is JSON text, never a throw: a request the store could not keep stays in this process.
   */
  async handle(sessionId: string, rawArgs: unknown, check: CompactRequestCheck = {}): Promise<string> {
    const parsed = CompactContextArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) return answer({ error: `${COMPACT_CONTEXT_TOOL_NAME}: ${z.prettifyError(parsed.error)}`, code: "invalid_arguments" });
    const left = this.turnsLeft(sessionId);
    if (left > 0) {
      return answer({
        accepted: false,
        reason: "too_soon",
        turns_left: left,
        message: `Not compacted: the conversation was compacted ${this.settings.min_turns_between - left} turn(s) ago; compact_context accepts again in ${left} turn(s) (compression.compact_tool.min_turns_between: ${this.settings.min_turns_between}).`,
      });
    }
    if (check.nothingToCompact !== undefined) {
      return answer({ accepted: false, reason: "nothing_to_compact", message: `Not compacted: ${check.nothingToCompact}.` });
    }
    const { focus } = parsed.data;
    const request: AgentCompactionRequest = focus === undefined ? {} : { focus };
    const record = this.record(sessionId);
    record.pending = request;
    record.shared = false;
    if (this.shared !== undefined) {
      try {
        await this.shared.store.saveEngineState(this.key!, sessionId, request);
        record.shared = true;
      } catch {
        // kept here: this process honours it at its next turn boundary
      }
    }
    const recovery = check.recoveryTool === undefined ? "" : ` The compacted turns stay readable with ${check.recoveryTool}.`;
    return answer({
      accepted: true,
      ...(focus === undefined ? {} : { focus }),
      message: `Accepted: before your next turn the older turns are replaced by a summary${focus === undefined ? "" : ` focused on "${focus}"`}; the latest turns stay as they are.${recovery}`,
    });
  }

  /** The request of `sessionId` still pending as far as this process knows (the status shows it), not taken. */
  pending(sessionId: string): AgentCompactionRequest | undefined {
    return this.sessions.get(sessionId)?.pending;
  }

  /**
   * The pending request of `sessionId`, taken (the host compacts once per request); undefined when none.
   * With a shared store the store decides: of the workers taking the next turn, one gets it.
   */
  async take(sessionId: string): Promise<AgentCompactionRequest | undefined> {
    const record = this.sessions.get(sessionId);
    const pending = record?.pending;
    const local = record?.shared === true ? undefined : pending;
    if (record !== undefined) {
      record.pending = undefined;
      record.shared = false;
    }
    // with the tool off no request can be pending anywhere: no store read at each turn boundary
    if (this.shared === undefined || !this.settings.enabled) return pending;
    // a store that fails: what this process knows (a request kept there shows up again at the next boundary)
    const stored = parseStoredRequest(await Promise.resolve(this.shared.store.takeEngineState(this.key!, sessionId)).catch(() => undefined));
    return stored ?? local;
  }

  /**
   * Gives a taken request back, unless a newer one came meanwhile: its compaction could not run here (another
   * worker held the session's compaction, or finished first), so the next turn boundary honours it.
   */
  async restore(sessionId: string, request: AgentCompactionRequest): Promise<void> {
    const record = this.record(sessionId);
    if (record.pending !== undefined) return;
    if (this.shared !== undefined) {
      const saved = await Promise.resolve(this.shared.store.claimEngineState(this.key!, sessionId, request, Number.MIN_SAFE_INTEGER)).catch(() => undefined);
      if (saved !== undefined) {
        // saved: the store holds it for every worker; not saved: a newer request is there
        if (saved) Object.assign(record, { pending: request, shared: true });
        return;
      }
    }
    Object.assign(record, { pending: request, shared: false });
  }

  /** Forgets `sessionId` (its session ended or was reset), in the shared store too. */
  async forget(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
    await this.shared?.store.clearEngineState(this.key!, sessionId);
  }
}

/** A request as the shared store gave it back; undefined when it is not one. */
function parseStoredRequest(value: unknown): AgentCompactionRequest | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const focus = (value as { focus?: unknown }).focus;
  return typeof focus === "string" && focus !== "" ? { focus } : {};
}

/** An engine that offers `compact_context` (the built-in compressor and lcm do, when enabled). */
export interface AgentCompactionSource {
  /** The pending request of `sessionId` (default: the engine's current session), taken; a promise when it is read from a shared store. */
  takeCompactionRequest(sessionId?: string): AgentCompactionRequest | undefined | PromiseLike<AgentCompactionRequest | undefined>;
}

/** The pending `compact_context` request `engine` holds for `sessionId`, taken; undefined when none or when the engine has no such tool. */
export async function takeCompactionRequest(engine: unknown, sessionId?: string): Promise<AgentCompactionRequest | undefined> {
  const source = engine as Partial<AgentCompactionSource> | undefined;
  return typeof source?.takeCompactionRequest === "function" ? await source.takeCompactionRequest(sessionId) : undefined;
}

/** An engine that can take a request back ({@link AgentCompactionRequests.restore}). */
interface AgentCompactionRestorer {
  restoreCompactionRequest(sessionId: string, request: AgentCompactionRequest): void | PromiseLike<void>;
}

/** Gives `engine` back the request it handed out for `sessionId`, when the engine can take it back (the compaction it asked for could not run). */
export async function restoreCompactionRequest(engine: unknown, sessionId: string, request: AgentCompactionRequest): Promise<void> {
  const restorer = engine as Partial<AgentCompactionRestorer> | undefined;
  if (typeof restorer?.restoreCompactionRequest === "function") await restorer.restoreCompactionRequest(sessionId, request);
}

/** The `compress()` options of the compaction `request` asks for: manual (`force`), with its focus. */
export function requestedCompression(request: AgentCompactionRequest): Pick<CompressOptions, "force" | "focusTopic"> {
  return { force: true, ...(request.focus === undefined ? {} : { focusTopic: request.focus }) };
}
