/**
 * Real sessions for the benches: every transcript under `../shared/corpus/raw`, imported with the
 * project's importers (what `context-engine import` does), largest first.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { ChatMessage } from "@context-engine/core";
import { importTranscriptFile } from "@context-engine/core/lab";
import { sharedDir } from "./anchor.js";

/** One imported corpus transcript. */
export interface CorpusSession {
  /** Path under `shared/corpus/raw/`. */
  name: string;
  format: string;
  messages: ChatMessage[];
}

const corpusRoot = join(sharedDir, "corpus", "raw");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every corpus transcript that imports, largest first; empty when `../shared/corpus` is missing. */
export async function corpusSessions(): Promise<CorpusSession[]> {
  let files: string[];
  try {
    files = filesUnder(corpusRoot);
  } catch {
    return [];
  }
  const sessions: CorpusSession[] = [];
  for (const file of files) {
    try {
      const result = await importTranscriptFile(file);
      sessions.push({ name: relative(corpusRoot, file), format: result.format, messages: result.messages });
    } catch {
      // not a transcript (or one the importers refuse): not bench data
    }
  }
  return sessions.sort((a, b) => b.messages.length - a.messages.length);
}

/** Short name of a session for tables: its format, message count and file name. */
export function sessionLabel(session: CorpusSession): string {
  return `${session.format} ${session.messages.length.toLocaleString("en-US")} msgs (${session.name.split("/").at(-1)})`;
}
