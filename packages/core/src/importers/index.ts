/** Entry points of the transcript importers: import text or a file in any supported format. */
import { readFile } from "node:fs/promises";
import { importAiSdkMessages } from "./aiSdk.js";
import { importCctraceXml } from "./cctraceXml.js";
import { importClaudeCode } from "./claudeCode.js";
import { detectTranscriptFormat } from "./detect.js";
import { malformedJsonDocument } from "./jsonInput.js";
import { importMiniSweAgent } from "./miniSweAgent.js";
import { importOpenAIMessages } from "./openai.js";
import { importOpenHands } from "./openhands.js";
import { importSpecStory } from "./specstory.js";
import { importShortfall } from "./shortfall.js";
import { importSweAgent } from "./sweAgent.js";
import { TRANSCRIPT_FORMATS, TranscriptImportError, UNNAMED_INPUT, type ImportOptions, type ImportResult, type TranscriptFormat } from "./types.js";

export { importAiSdkMessages } from "./aiSdk.js";
export { importCctraceXml } from "./cctraceXml.js";
export { importClaudeCode } from "./claudeCode.js";
export { detectTranscriptFormat } from "./detect.js";
export { importMiniSweAgent } from "./miniSweAgent.js";
export { importOpenAIMessages } from "./openai.js";
export { importOpenHands, importOpenHandsRecords, type OpenHandsImportOptions, type OpenHandsRecordResult } from "./openhands.js";
export { importSpecStory } from "./specstory.js";
export { importSweAgent } from "./sweAgent.js";
export { parsePythonLiteral, PythonLiteralError } from "./pythonLiteral.js";
export { TRANSCRIPT_FORMATS, TranscriptImportError, type ImportOptions, type ImportResult, type ImporterOptions, type TranscriptFormat } from "./types.js";

/**
 * Imports a transcript into OpenAI chat messages that pass `validateConversation()`. The format is
 * detected from the content unless `options.format` names it; an unknown format is a
 * {@link TranscriptImportError} naming the file. Skipped and repaired parts are listed in `warnings`, and
 * a result that looks like a misread (no assistant turns, no tool calls, far fewer user turns than the
 * file's headers) gets a last warning naming the format it was read as.
 */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const requested = options.format ?? "auto";
  if (requested !== "auto" && !TRANSCRIPT_FORMATS.includes(requested)) {
    throw new TranscriptImportError(`${fileName}: unknown format ${JSON.stringify(requested)} (expected auto, ${TRANSCRIPT_FORMATS.join(", ")})`);
  }
  const format: TranscriptFormat | undefined = requested === "auto" ? detectTranscriptFormat(text, options.fileName) : requested;
  if (format === undefined) {
    const malformed = malformedJsonDocument(text);
    if (malformed !== undefined) throw new TranscriptImportError(`${fileName}: ${malformed}`);
    throw new TranscriptImportError(
      `${fileName}: cannot detect the transcript format (supported: ${TRANSCRIPT_FORMATS.join(", ")}); pass the format explicitly`,
    );
  }
  const result = importAs(format, text, options, fileName);
  const shortfall = importShortfall(result, text, fileName, requested === "auto");
  return shortfall === undefined ? result : { ...result, warnings: [...result.warnings, shortfall] };
}

/** Runs the importer of `format`. */
function importAs(format: TranscriptFormat, text: string, options: ImportOptions, fileName: string): ImportResult {
  const importerOptions = { fileName };
  switch (format) {
    case "claude-code":
      return importClaudeCode(text, importerOptions);
    case "swe-agent":
      return importSweAgent(text, importerOptions);
    case "openhands":
      return importOpenHands(text, options.record === undefined ? importerOptions : { ...importerOptions, record: options.record });
    case "openai":
      return importOpenAIMessages(text, importerOptions);
    case "specstory":
      return importSpecStory(text, importerOptions);
    case "cctrace-xml":
      return importCctraceXml(text, importerOptions);
    case "ai-sdk":
      return importAiSdkMessages(text, importerOptions);
    case "mini-swe-agent":
      return importMiniSweAgent(text, importerOptions);
  }
}

/** Reads `path` (UTF-8) and imports it with {@link importTranscript}; `fileName` defaults to `path`. */
export async function importTranscriptFile(path: string, options: ImportOptions = {}): Promise<ImportResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new TranscriptImportError(`${path}: cannot read the transcript: ${(error as Error).message}`);
  }
  return importTranscript(text, { ...options, fileName: options.fileName ?? path });
}
