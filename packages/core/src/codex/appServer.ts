/**
 * Codex app-server thread compaction, SPEC §3.5: in `api_mode: codex_app_server` the codex agent owns
 * the thread's context, so compaction is delegated to the app-server and the local transcript is never
 * rewritten; the host only records the compaction boundary.
 */
import type { CompressionConfig } from "../config/schema.js";
import type { ModelInfo } from "../engine/types.js";
import type { ChatMessage } from "../messages/schema.js";

/** The `api_mode` of Codex app-server sessions. */
export const CODEX_APP_SERVER_API_MODE = "codex_app_server";
/** The app-server JSON-RPC method that compacts a thread. */
export const APP_SERVER_COMPACT_METHOD = "thread/compact/start";

/** `compression.codex_app_server_auto`. */
export type AppServerAutoMode = CompressionConfig["codex_app_server_auto"];
/** What started a compaction: manual `/compress` or the automatic path. */
export type AppServerCompactionTrigger = "manual" | "auto";
/**
 * What the host does: `delegate_and_wait` (ask the app-server and wait), `record_only` (the app-server
 * decides; record its compaction events), `delegate` (the host's threshold starts app-server
 * compaction), `skip` (no host-started compaction).
 */
export type AppServerCompactionAction = "delegate_and_wait" | "record_only" | "delegate" | "skip";

/** True when `model` describes a Codex app-server session. */
export function isAppServerSession(model: Pick<ModelInfo, "apiMode">): boolean {
  return model.apiMode?.trim().toLowerCase() === CODEX_APP_SERVER_API_MODE;
}

/**
 * The compaction policy of an app-server session. Manual `/compress` always delegates and waits;
 * automatic compaction follows the mode: `native` → record_only, `hermes` → delegate once the host's
 * threshold is reached (else skip), `off` → skip.
 */
export function appServerCompactionPolicy(
  mode: AppServerAutoMode,
  trigger: AppServerCompactionTrigger,
  hostThresholdReached: boolean,
): AppServerCompactionAction {
  if (trigger === "manual") return "delegate_and_wait";
  switch (mode) {
    case "native":
      return "record_only";
    case "hermes":
      return hostThresholdReached ? "delegate" : "skip";
    case "off":
      return "skip";
  }
}

/** An app-server thread that can compact itself; `compact()` resolves once compaction has finished. */
export interface AppServerThread {
  compact(): Promise<void>;
}

/** The smallest JSON-RPC client an {@link AppServerThread} needs: a request that resolves with its result. */
export interface AppServerRpcClient {
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
}

/** An {@link AppServerThread} backed by `thread/compact/start` on `client` for `threadId`. */
export function appServerThread(client: AppServerRpcClient, threadId: string): AppServerThread {
  return {
    async compact(): Promise<void> {
      await client.request(APP_SERVER_COMPACT_METHOD, { threadId });
    },
  };
}

/** The compaction boundary the store records: the local transcript stays intact up to here. */
export interface AppServerCompactionBoundary {
  trigger: AppServerCompactionTrigger;
  /** Messages of the local transcript at the boundary (the compaction covers `messages[0, messageCount)`). */
  messageCount: number;
  /** True when the host asked for it; false when the app-server compacted on its own (native mode). */
  hostStarted: boolean;
}

/** Receives the boundary (e.g. writes it to the session store). */
export type RecordAppServerBoundary = (boundary: AppServerCompactionBoundary) => void | Promise<void>;

/**
 * Runs a host-started compaction (manual `/compress`, or `hermes` mode): asks the app-server to compact
 * the thread, waits, records the boundary, and returns `messages` itself — never a rewritten copy.
 * A failed compaction records nothing and rethrows.
 */
export async function compactViaAppServer(
  thread: AppServerThread,
  messages: readonly ChatMessage[],
  options: { trigger: AppServerCompactionTrigger; recordBoundary: RecordAppServerBoundary },
): Promise<readonly ChatMessage[]> {
  await thread.compact();
  await options.recordBoundary({ trigger: options.trigger, messageCount: messages.length, hostStarted: true });
  return messages;
}

/** Records a compaction the app-server did on its own (native mode); the transcript is untouched. */
export async function recordAppServerCompaction(messages: readonly ChatMessage[], recordBoundary: RecordAppServerBoundary): Promise<void> {
  await recordBoundary({ trigger: "auto", messageCount: messages.length, hostStarted: false });
}
