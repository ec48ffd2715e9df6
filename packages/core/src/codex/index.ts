/** `@context-engine/core/codex` — the Codex routes: model windows and `-900k` aliases, the threshold autoraise and its one-time notice, Responses-API native compaction, and compaction delegated to the Codex app-server. */

// The route extension, its settings (the `codex:` config section), and route hooks to install routes into
export { CODEX_ROUTE, codexRoute, installCodexRoute } from "./route.js";
export { BUILTIN_ROUTES, installBuiltinRoutes, builtinRouteHooks, defaultRouteHooks } from "../routes/builtin.js";
export { createRouteHooks } from "../host/hooks.js";
export { CODEX_SECTION, CodexSectionSchema, codexConfigOf } from "../config/codexSection.js";
export type { CodexConfig, LegacyCodexKeys } from "../config/codexSection.js";

// Model windows and aliases
export { CODEX_PROVIDER, CODEX_ADVERTISED_WINDOW, CODEX_LARGE_VARIANT_WINDOW, CODEX_LARGE_VARIANT_BASES, CODEX_CAPPED_MODELS, LARGE_VARIANT_SUFFIX, CodexModelError, resolveCodexModel, routeContextWindow, baseModelName, codexModelFamily, isCodexProvider } from "./models.js";
export type { ResolvedCodexModel } from "./models.js";

// Threshold autoraise and its notice
export { CODEX_AUTORAISE_PERCENT, codexAutoraise, codexThresholdPlan, raiseThresholdPlan, isCodexAutoraiseEligible } from "./autoraise.js";
export type { CodexAutoraiseInput, CodexAutoraiseResult, CodexThresholdPlan, CodexAutoraiseSettings } from "./autoraise.js";
export { AUTORAISE_MARKER_FILE, hermesHome, autoraiseNoticeState, parseAutoraiseNoticeState, autoraiseNoticeText, autoraiseMarkerPath, shouldShowAutoraiseNotice, markAutoraiseNoticeShown, takeAutoraiseNotice } from "./autoraiseNotice.js";
export type { AutoraiseEngineSource, AutoraiseNotice, AutoraiseChange } from "./autoraiseNotice.js";

// Responses-API native compaction
export { NATIVE_COMPACTION_OFFSET_TOKENS, nativeCompactionField, nativeCompactionRoute, nativeCompactThreshold, isNativeCompactionModel, foldCompactionItems, replayItemsFor, replayIssuer, isNativeCompactionRefusal, NativeCompactionState, sendWithNativeCompaction } from "./responsesCompaction.js";
export type { NativeCompactionField, NativeCompactionRequest, NativeCompactionRoute, NativeCompactionSettings, AssistantReplayMetadata } from "./responsesCompaction.js";

// The Codex app-server
export { CODEX_APP_SERVER_API_MODE, APP_SERVER_COMPACT_METHOD, appServerCompactionPolicy, appServerThread, compactViaAppServer, recordAppServerCompaction, isAppServerSession, appServerSessionCompaction } from "./appServer.js";
export type { AppServerAutoMode, AppServerCompactionTrigger, AppServerCompactionAction, AppServerThread, AppServerRpcClient, AppServerCompactionBoundary, RecordAppServerBoundary } from "./appServer.js";
