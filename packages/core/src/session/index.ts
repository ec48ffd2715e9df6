/** `@context-engine/core/session` — the compaction session shell (a host's loop of store, engine and compaction) and gateway hygiene around it: when a session is too long to send, and what to tell the user. */
export { CompactionSession } from "./CompactionSession.js";
export type { CompactionSessionOptions, CompactionSessionHost, MaybeCompressOptions, CompactionResult, CompactionOutcome } from "./CompactionSession.js";
export { CompactionSessionAsync } from "./CompactionSessionAsync.js";
export type { CompactionSessionAsyncOptions } from "./CompactionSessionAsync.js";
export { compressionCountWarning, COMPRESSION_WARN_AFTER } from "./warnings.js";

// Gateway hygiene settings and thresholds (gatewayHygiene itself is in the package root)
export { hygieneAfterMessage, hygieneCalibration, hygieneThresholdTokens, GATEWAY_HYGIENE_THRESHOLD, GATEWAY_HYGIENE_WARN_AFTER, DEFAULT_HYGIENE_HARD_MESSAGE_LIMIT, GATEWAY_HYGIENE_MIN_MESSAGES, HYGIENE_ABORT_NOTICE } from "../gateway/hygiene.js";
export type { HygieneOutcome } from "../gateway/hygiene.js";
export { engineGatewayHygiene, engineHygieneSettings } from "../gateway/engineHygiene.js";
export type { EngineHygieneSettings, HygieneUsage } from "../gateway/engineHygiene.js";
export { prepareEngineCompression } from "../gateway/enginePreparation.js";
// no request over the window: the outgoing request's estimate against the window less the output reserve
export { estimateRequestTokens, outputReserveTokens, requestLimitTokens, requestOverflows, DEFAULT_OUTPUT_RESERVE_SHARE, DEFAULT_OUTPUT_RESERVE_CAP } from "../engine/requestFit.js";
export type { RequestUsage, RequestEstimate, RequestWindow, CountMessages } from "../engine/requestFit.js";
// the host's side of the agent's compact_context: take its request, write the notice after a compaction
export { restoreCompactionRequest, takeCompactionRequest } from "../engine/compactContextTool.js";
export { compactionNoticeText } from "../engine/lastCompaction.js";
// what workers left each other in a shared store (an operator's view: context-engine sessions show)
export { pendingWorkOf, pendingWorkLine } from "./pendingWork.js";
export type { PendingWork } from "./pendingWork.js";
export type { PreparationUsage } from "../gateway/enginePreparation.js";
// what a host feeds back after each response, in any provider's usage shape
export { normalizeUsage, InvalidUsageError } from "../engine/usage.js";
