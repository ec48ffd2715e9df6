/**
 * The files `context-engine new engine <name>` writes into `plugins/context_engine/<name>/`: a working
 * engine with one setting (`keep_last`) declared as plugins declare settings
 * (docs/BEHAVIOUR.md, "Plugin settings"), a conformance test for `node --test`, and a README. Pure: name in, file texts out.
 */

/** A file of the scaffold: its name inside the engine's folder and its text. */
export interface ScaffoldFile {
  name: string;
  text: string;
}

/** `head_tail` → `HeadTailEngine`: the engine class's name. */
export function engineClassName(name: string): string {
  const words = name.split(/[-_]+/).filter(Boolean);
  const pascal = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return `${/^[0-9]/.test(pascal) ? "E" : ""}${pascal}Engine`;
}

/** The engine module: settings declared with the host's `z`, an engine that keeps the system prompt and the last `keep_last` messages. */
function indexTs(name: string): string {
  const className = engineClassName(name);
  return `/**
 * ${name} — a directory engine: when the prompt reaches the threshold it keeps the system prompt and the
 * last \`keep_last\` messages (widened back to the user message that starts their turn). Select it with
 * \`context: { engine: ${name} }\` in config.yaml.
 */
import { ContextEngine, sanitizeToolPairs, z, type ChatMessage, type CompressOptions, type EngineContext } from "@context-engine/core";

/** The \`${name}:\` section of config.yaml. The host checks it (with the file's line numbers) and hands it over as \`ctx.settings\`. */
export const settings = z.object({
  /** Messages kept after a compaction, besides the system prompt. */
  keep_last: z.number().int().min(1).default(20),
});

/** The parsed \`${name}:\` section. */
export type Settings = z.output<typeof settings>;

/** The ${name} engine. */
export default class ${className} extends ContextEngine {
  static readonly engineName = ${JSON.stringify(name)};
  /** The engine contract this engine was built for: a host that knows an older one warns and says what to upgrade. */
  static readonly apiVersion = 1;
  readonly name = ${JSON.stringify(name)};
  /** Messages kept after a compaction (\`${name}.keep_last\`). */
  readonly keepLast: number;

  /** The host passes its engine context (\`ctx.settings\`: the section, checked); in code, pass the parts you need (\`{ settings: { keep_last: 5 } }\`). */
  constructor(ctx: Partial<EngineContext> = {}) {
    super(ctx);
    this.keepLast = settings.parse(ctx.settings ?? {}).keep_last;
  }

  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }

  async compress(messages: ChatMessage[], _options: CompressOptions = {}): Promise<ChatMessage[]> {
    // never mutate the input: build a new list
    let head = 0;
    while (head < messages.length && messages[head]!.role === "system") head++;
    let start = Math.max(head, messages.length - this.keepLast);
    // start the kept part at a user message, so no tool result is kept without its call
    while (start > head && messages[start]!.role !== "user") start--;
    if (start <= head) return messages;
    this.compressionCount++;
    this.lastPromptTokens = -1; // "awaiting real usage" until the next response reports it
    return sanitizeToolPairs([...messages.slice(0, head), ...messages.slice(start)]);
  }
}
`;
}

/** The test: the engine loaded as the host loads it, through the conformance suite and with a setting. */
function conformanceTest(name: string): string {
  return `// Run with \`node --test plugins/context_engine/${name}/\` — node's own test runner: nothing to install
// besides @context-engine/core, and on any Node the host supports. The host loads index.ts as it does
// in use (TypeScript included), so this file is plain JavaScript.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createContextHost } from "@context-engine/core";
import { runConformance } from "@context-engine/core/conformance";

/** The project: the folder that holds plugins/context_engine/. */
const rootDir = fileURLToPath(new URL("../../..", import.meta.url));

/** A host whose engine is ${name}, with \`section\` as its config section. */
function host(section = {}) {
  return createContextHost({ config: { context: { engine: ${JSON.stringify(name)} }, ${JSON.stringify(name)}: section }, rootDir });
}

test("${name} keeps the engine contract (the conformance suite)", async () => {
  const report = await runConformance(async () => (await host()).engine);
  assert.deepEqual(report.checks.filter((check) => !check.ok), []);
});

test("${name} reads keep_last from its config section", async () => {
  const { engine, warnings } = await host({ keep_last: 5 });
  assert.equal(engine.name, ${JSON.stringify(name)});
  assert.equal(engine.keepLast, 5);
  assert.deepEqual(warnings, []);
});
`;
}

/** The README: what the engine does and the commands that try it. */
function readme(name: string): string {
  return `# ${name}

A context engine for context-engine (a directory engine: the host loads \`index.ts\` from here). When the
prompt reaches the threshold it keeps the system prompt and the last \`keep_last\` messages.

## Use it

\`\`\`yaml
# config.yaml
context:
  engine: ${name}
${name}:
  keep_last: 20        # messages kept after a compaction (a whole number, 1 or more)
\`\`\`

\`\`\`sh
context-engine config set ${name}.keep_last 5    # checked against the settings index.ts declares
context-engine conformance ${name}               # the engine contract, 17 checks
node --test plugins/context_engine/${name}/      # the same suite, and the setting, as a test
context-engine compress transcript.json --engine ${name}
\`\`\`

## Change it

- \`settings\` in \`index.ts\` is the \`${name}:\` section: add a key with a default, and the host checks it,
  \`context-engine config\` shows and sets it, and the engine gets it as \`ctx.settings\`.
- \`compress()\` is the policy. Return a new list (never change the input) that keeps every tool call with
  its result; \`sanitizeToolPairs\` repairs what a cut leaves.
`;
}

/** Every file of the scaffold of engine `name`. */
export function engineScaffold(name: string): ScaffoldFile[] {
  return [
    { name: "index.ts", text: indexTs(name) },
    { name: "conformance.test.mjs", text: conformanceTest(name) },
    { name: "README.md", text: readme(name) },
  ];
}
