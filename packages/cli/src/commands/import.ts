/** `context-engine import`: converts a transcript to OpenAI-format messages. */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { validateConversation } from "@context-engine/core";
import { parseCommandArgs } from "../args.js";
import { FORMAT_CHOICES, IMPORT_FLAGS } from "../commandFlags.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { loadTranscript } from "../transcript.js";

/** Runs `import`. */
export async function runImport(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, IMPORT_FLAGS);
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("expects exactly one transcript file");
  if (!FORMAT_CHOICES.includes(values.format)) throw new UsageError(`--format must be one of ${FORMAT_CHOICES.join(", ")}`);
  const transcript = await loadTranscript(io.cwd, file, values.format, true);
  for (const warning of transcript.warnings) io.stderr(`warning: ${warning}`);
  const problems = validateConversation(transcript.messages);
  const json = JSON.stringify(transcript.messages, null, 2) + "\n";
  if (values.out) {
    await writeFile(resolve(io.cwd, values.out), json);
    io.stderr(`${file} (${transcript.format}) → ${values.out}: ${transcript.messages.length} messages`);
  } else io.stdout(json);
  if (problems.length > 0) {
    io.stderr(`invalid output: ${problems.map((p) => p.message).join("; ")}`);
    return EXIT_FAILURE;
  }
  return EXIT_OK;
}
