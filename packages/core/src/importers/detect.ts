/**
 * Recognizes a transcript's format from its content, with the file extension as a tie-breaker
 * (`.traj` → SWE-agent). Whole-document JSON is looked at first (chat messages with a Vercel AI SDK
 * part are `ai-sdk`), then the text formats (cctrace XML by its `<claude-session>` root, SpecStory
 * markdown by its header comment or role headers), then the first JSON Lines records.
 */
import { firstAiSdkPart } from "../messages/aiSdkShape.js";
import { looksLikeCctraceXml } from "./cctraceXml.js";
import { isRecord, parseJsonLines, tryParseJson } from "./jsonInput.js";
import { isMiniSweAgentTrajectory } from "./miniSweAgent.js";
import { looksLikeSpecStory } from "./specstory.js";
import type { TranscriptFormat } from "./types.js";

const CLAUDE_CODE_TYPES = new Set(["user", "assistant", "system", "summary", "file-history-snapshot", "queue-operation", "progress"]);
const CHAT_ROLES = new Set(["system", "user", "assistant", "tool", "developer"]);

function isOpenHandsEvent(value: unknown): boolean {
  return isRecord(value) && ("action" in value || "observation" in value) && "source" in value;
}

function isChatMessage(value: unknown): boolean {
  return isRecord(value) && typeof value.role === "string" && CHAT_ROLES.has(value.role);
}

function isClaudeCodeRecord(value: unknown): boolean {
  if (!isRecord(value) || typeof value.type !== "string" || !CLAUDE_CODE_TYPES.has(value.type)) return false;
  return value.type === "user" || value.type === "assistant" ? isRecord(value.message) : true;
}

/** Chat-like messages of which at least one carries a Vercel AI SDK part (`tool-call`, `tool-result`, …). */
function isAiSdkConversation(list: unknown[]): boolean {
  return list.every(isChatMessage) && list.some((m) => firstAiSdkPart(m) !== undefined);
}

/** The format of one parsed JSON document, if it is recognizable. */
function formatOfDocument(value: unknown): TranscriptFormat | undefined {
  if (Array.isArray(value)) {
    const sample = value.slice(0, 20);
    if (sample.some(isOpenHandsEvent)) return "openhands";
    if (sample.some(isClaudeCodeRecord)) return "claude-code";
    if (isAiSdkConversation(value)) return "ai-sdk";
    if (sample.length > 0 && sample.every(isChatMessage)) return "openai";
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.loglines)) return "claude-code";
  if (Array.isArray(value.history)) {
    const sample = value.history.slice(0, 20);
    if (sample.some(isOpenHandsEvent)) return "openhands";
    if (sample.some(isChatMessage)) return "swe-agent";
    return undefined;
  }
  if (isMiniSweAgentTrajectory(value)) return "mini-swe-agent";
  if (Array.isArray(value.messages)) return isAiSdkConversation(value.messages) ? "ai-sdk" : "openai";
  if (isClaudeCodeRecord(value)) return "claude-code";
  return undefined;
}

/** The format of JSON Lines input, judged by its first parseable records. */
function formatOfLines(text: string): TranscriptFormat | undefined {
  const values = parseJsonLines(text)
    .slice(0, 50)
    .flatMap((line) => (line.error === undefined ? [line.value] : []));
  if (values.some(isClaudeCodeRecord)) return "claude-code";
  if (values.some((v) => isRecord(v) && Array.isArray(v.history) && v.history.some(isOpenHandsEvent))) return "openhands";
  return undefined;
}

/** Guesses the format of `text` (a transcript's content); `undefined` when nothing fits. */
export function detectTranscriptFormat(text: string, fileName?: string): TranscriptFormat | undefined {
  const whole = tryParseJson(text);
  if (whole === undefined && looksLikeCctraceXml(text)) return "cctrace-xml";
  if (whole === undefined && looksLikeSpecStory(text)) return "specstory";
  const fromContent = whole !== undefined ? formatOfDocument(whole) : formatOfLines(text);
  if (fromContent !== undefined) return fromContent;
  if (fileName !== undefined && /\.traj$/i.test(fileName)) return "swe-agent";
  return undefined;
}
