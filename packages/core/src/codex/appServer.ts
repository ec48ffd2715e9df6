/**
 * Codex app-server thread compaction (docs/BEHAVIOUR.md, "Routes"): in `api_mode: codex_app_server` the codex agent owns
 * the thread's context, so compaction is delegated to the app-server and the local transcript is never
 * rewritten; the host only records the compaction boundary.
 */
import type { ModelInfo } from "../engine/types.js";
import type { CompactionTrigger, RouteCompaction, ServerCompactionBoundary, ServerThread } from "../host/hooks.js";
import type { ChatMessage } from "../messages/schema.js";
import type { CodexConfig } from "../config/codexSection.js";

/** The `api_mode` of Codex app-server sessions. */
export const CODEX_APP_SERVER_API_MODE = "codex_app_server";
/** The app-server JSON-RPC method that compacts a thread. */
export const APP_SERVER_COMPACT_METHOD = "thread/compact/start";

/** `codex.app_server_auto`. */
export type AppServerAutoMode = CodexConfig["app_server_auto"];
/** What started a compaction: manual `/compress` or the automatic path. */
export type AppServerCompactionTrigger = CompactionTrigger;
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
export type AppServerThread = ServerThread;

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

/** The compaction boundary the store records: the local transcript stays intact up to here (`hostStarted` is false in native mode). */
export type AppServerCompactionBoundary = ServerCompactionBoundary;

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

/**
 * The session compaction of an app-server session, as the route hook hands it to the session shell:
 * what {@link appServerCompactionPolicy} says for `mode`, and a delegation to `thread` (required: the
 * app-server owns the thread's context, so there is nothing to compact locally).
 */
export function appServerSessionCompaction(mode: AppServerAutoMode, thread: AppServerThread | undefined): RouteCompaction {
  return {
    decide(trigger, thresholdReached) {
      const action = appServerCompactionPolicy(mode, trigger, thresholdReached);
      return action === "delegate" || action === "delegate_and_wait" ? "compact" : "skip";
    },
    async compact({ sessionId, trigger, messages }) {
      if (thread === undefined) {
        throw new Error(
          `CompactionSession('${sessionId}'): the model runs on the Codex app-server (api_mode: ${CODEX_APP_SERVER_API_MODE}), which owns the thread's context; ` +
            "give `appServerThread` so compaction can be delegated (the local transcript is never rewritten)",
        );
      }
      let recorded: AppServerCompactionBoundary | undefined;
      await compactViaAppServer(thread, messages, { trigger, recordBoundary: (boundary) => void (recorded = boundary) });
      return recorded!;
    },
  };
}
