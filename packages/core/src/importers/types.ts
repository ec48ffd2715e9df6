/** Shared shapes of the transcript importers (real agent transcripts → OpenAI chat messages); also the `@context-engine/core/formats` entry, light enough for `--help`. */
import type { ChatMessage } from "../messages/schema.js";

/** The transcript formats the importers understand. */
export type TranscriptFormat = "claude-code" | "swe-agent" | "openhands" | "openai" | "specstory" | "cctrace-xml" | "ai-sdk" | "mini-swe-agent";

/** Every format name, for CLI validation and error texts. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ["claude-code", "swe-agent", "openhands", "openai", "specstory", "cctrace-xml", "ai-sdk", "mini-swe-agent"];

/** Options every importer accepts. */
export interface ImporterOptions {
  /** Names the input in warnings and errors (`file:line`); default `"<input>"`. */
  fileName?: string;
}

/** Options of `importTranscript`. */
export interface ImportOptions extends ImporterOptions {
  /** `"auto"` (default) detects the format from the content, with the file extension as a hint. */
  format?: "auto" | TranscriptFormat;
  /** Which record of a multi-record file (OpenHands eval JSONL) to take, 0-based; default the longest. */
  record?: number;
}

/** What an import returns: valid chat messages plus everything that was skipped or repaired. */
export interface ImportResult {
  format: TranscriptFormat;
  messages: ChatMessage[];
  /** One line per problem, each naming its place (`file:line` or `file: history[3]`). */
  warnings: string[];
}

/** Thrown when a transcript cannot be imported at all; the message names the file. */
export class TranscriptImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TranscriptImportError";
  }
}

/** The default name of an input that has no file name. */
export const UNNAMED_INPUT = "<input>";
