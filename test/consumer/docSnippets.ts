/**
 * The TypeScript snippets of README.md and docs/*.md (every ```ts block), for the consumer project to
 * type-check. A snippet whose first line is a `// partial: …` comment is deliberately incomplete (it
 * uses names the prose around it gives) and is skipped; one whose first line names a `.ts` file
 * (`// plugins/context_engine/my_engine/index.ts`) is written there, so snippets that import each other compile together.
 * A snippet that imports a framework (`ai`, `@ai-sdk/…`, `langchain`, `@langchain/…` or
 * `@context-engine/langchain`) goes under `frameworks/`, which is checked as README says such a file must
 * be ("Use it in your own project": `exactOptionalPropertyTypes` off).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../support/cli.js";

/** One ```ts block of a document. */
export interface DocSnippet {
  /** `README.md:291`: the document and the line of the opening fence. */
  place: string;
  /** Where the consumer project gets it: the file its first line names, else `snippets/<doc>-<line>.ts`; under `frameworks/` when it imports a framework. */
  file: string;
  code: string;
  /** Its first line is a `// partial:` comment. */
  partial: boolean;
  /** `README.md: <its first line>`. */
  heading: string;
}

/** The snippets marked partial, by their first line: keep this list short (a new one is marked in its document and added here). */
export const PARTIAL_SNIPPETS = [
  "README.md: // partial: history, lastPromptLength and callModel are your agent's",
  "README.md: // partial: host, model, messages and tools as in examples/ai-sdk/index.ts",
  "README.md: // partial: host, model and tools as in examples/langchain/index.ts",
];

/** The folder of the consumer project checked with `exactOptionalPropertyTypes` off: files that import a framework. */
export const FRAMEWORKS_FOLDER = "frameworks";

/** An import of a framework whose own declarations fail `exactOptionalPropertyTypes` with `skipLibCheck` off. */
const FRAMEWORK_IMPORT = /\bfrom "(ai|@ai-sdk\/[\w-]+|langchain|@langchain\/[\w/-]+|@context-engine\/langchain)"/;

/** The documents whose snippets must compile: README.md and docs/*.md. */
function documents(): string[] {
  return ["README.md", ...readdirSync(join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

/** Every ```ts block of README.md and docs/*.md, in document order. */
export function docSnippets(): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  for (const doc of documents()) {
    const text = readFileSync(join(repoRoot, doc), "utf8");
    for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, match.index).split("\n").length;
      const code = match[1]!;
      const first = code.split("\n", 1)[0]!;
      const named = /^\/\/ ([\w./-]+\.ts)\b/.exec(first)?.[1];
      const file = named ?? `snippets/${doc.replace(/\W/g, "_")}-${line}.ts`;
      snippets.push({ place: `${doc}:${line}`, file: FRAMEWORK_IMPORT.test(code) ? `${FRAMEWORKS_FOLDER}/${file.replaceAll("/", "-")}` : file, code, partial: /^\/\/ partial:/.test(first), heading: `${doc}: ${first}` });
    }
  }
  return snippets;
}
