/** Reading a transcript file for CLI commands: OpenAI-format JSON, or any format the importers know. */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseMessages, type ChatMessage } from "@context-engine/core";

/** A loaded transcript and how it was read. */
export interface LoadedTranscript {
  messages: ChatMessage[];
  format: string;
  warnings: string[];
}

/**
 * Loads `file` (relative to `cwd`): a JSON array of messages directly (so AI SDK messages are refused
 * with the converter to use), anything else through the importers; with `convert`, everything goes
 * through the importers (format detection included), which are imported only then. Problems name the
 * file as given on the command line.
 */
export async function loadTranscript(cwd: string, file: string, format = "auto", convert = false): Promise<LoadedTranscript> {
  const path = resolve(cwd, file);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === "ENOENT" ? `transcript not found: ${path}` : `cannot read ${path}: ${error.message}`);
  });
  if (!convert && (format === "auto" || format === "openai")) {
    const direct = tryOpenAIMessages(text);
    if (direct !== undefined) return { messages: parseMessages(direct, file), format: "openai", warnings: [] };
  }
  const { importTranscript } = await import("@context-engine/core/lab");
  const imported = importTranscript(text, { format: format as never, fileName: file });
  return { messages: imported.messages, format: imported.format, warnings: imported.warnings };
}

function tryOpenAIMessages(text: string): unknown[] | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("[") && !trimmed.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(value) && value.every((m) => typeof m === "object" && m !== null && "role" in m)) return value;
  return undefined;
}
