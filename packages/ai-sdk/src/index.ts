/**
 * @context-engine/ai-sdk — context engines for Vercel AI SDK 6 apps.
 */
export { toChatMessages, AiSdkConversionError } from "./toChatMessages.js";
export { toModelMessages } from "./toModelMessages.js";
export { AI_SDK_MARKER } from "./marker.js";
