/** `@context-engine/core/internal` — what the sibling packages (the CLI, lcm, the framework adapters) share with the core and users should not call: no compatibility promise, names may change in any release. */
export { canonicalJson } from "../messages/canonicalJson.js";
export { messagesChanged } from "../messages/changed.js";
export { countingIdOf, messageCounter } from "../tokens/types.js";
export { setConfigValue, parseConfigValue, formatConfigYaml, currentConfigKey } from "../config/load.js";
export { unknownConfigKeyMessage, nearestConfigKey } from "../config/keys.js";
export { checkSection, sectionDefaults, unknownSectionKeys, type DeclaredSection, type SectionCheck } from "../config/pluginSettings.js";
export { discoverDeclaredSections, type DiscoveredSections } from "../host/declaredSettings.js";
export { configKeyLine } from "../config/load.js";
export { hostRootDir } from "../host/createContextHost.js";
export { listDirectoryEngines, SHIPPED_ENGINE_PACKAGES } from "../host/engineNotFound.js";
export { resolveToolScope, ambiguousScopeResult, toolCallContext, isScope } from "../engine/toolScope.js";
export { zodToolSchema } from "../engine/toolSchema.js";
export { lastCompactionOf, noticeSince, userTurnWithNotice } from "../engine/lastCompaction.js";
export { requestedCompression } from "../engine/compactContextTool.js";
export { aiSdkMessageToChat, aiSdkToolOutputText } from "../importers/aiSdk.js";
export { OutgoingRequestTracker, engineCount, engineRequestLimit } from "../session/outgoingRequest.js";
export type { OutgoingRequest } from "../session/outgoingRequest.js";
export { isPreparedRangeId, preparedRangeId, startsWithRange, type PreparedRangeId } from "../compressor/sharedPreparations.js";
