import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardVerbatim, lineFacts, verbatimFlag } from "../../src/compressor/verbatimGuard.js";
import { BRACE_LIST, braceListPaths, requestSourceTexts, verbatimSource } from "../../src/compressor/verbatimSource.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { call, fastApiConversation, roughCounter, toolTurn, user } from "./fixtures.js";

const SOURCE_TEXTS = [
  "Please fix the login bug in src/auth/login.ts and keep the public API stable",
  "terminal: cd /repo && pnpm test --filter core",
  "The handler calls validate_token and refreshSession before it redirects.",
];
const source = verbatimSource(SOURCE_TEXTS);

describe("the verbatim guard", () => {
  it("leaves a summary whose every path, command, identifier and quote is in the source unchanged", () => {
    const summary = [
      "## Goal",
      '- "fix the login bug in src/auth/login.ts"',
      "### Done",
      "- ran `pnpm test --filter`; validate_token and refreshSession checked",
    ].join("\n");
    const result = guardVerbatim(summary, source);
    expect(result.summary).toBe(summary);
    expect(result).toMatchObject({ checked: 4, removed: 0, flagged: 0, invented: [] });
  });

  it("removes a list item that states nothing but an invented path, and writes (none) under a section it empties", () => {
    const summary = "## Relevant Files\n- src/auth/ghost.ts — edited\n## Next Steps\n- keep the API stable";
    const result = guardVerbatim(summary, source);
    expect(result.summary).toBe("## Relevant Files\n- (none)\n## Next Steps\n- keep the API stable");
    expect(result).toMatchObject({ removed: 1, flagged: 0, invented: [{ kind: "path", text: "src/auth/ghost.ts" }] });
  });

  it("finds every brace list the brace-list pattern matches in any text, its quick check skipping none", () => {
    const alphabet = fc.constantFrom("/", "{", "}", ",", " ", "\n", "~", ".", "a", "b", "-", "@");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join("")), (text) => {
        const byPattern = [...text.matchAll(BRACE_LIST)].flatMap((m) => m[2]!.split(",").map((name) => name.trim()).filter((name) => name !== "").map((name) => m[1]! + name));
        expect(braceListPaths(text)).toEqual(byPattern);
      }),
      { numRuns: 2_000 },
    );
    expect(braceListPaths("see src/app/{main.py, models.py}")).toEqual(["src/app/main.py", "src/app/models.py"]);
  });

  it("reads the turns' texts only when a summary states a fact to check, and then once", () => {
    let reads = 0;
    const lazy = () => verbatimSource(() => (reads++, SOURCE_TEXTS));
    expect(guardVerbatim("## Goal\n- keep going", lazy()).invented).toEqual([]);
    expect(reads).toBe(0);
    const result = guardVerbatim("## Goal\n- fix src/auth/login.ts\n- ran `pnpm test --filter core`\n- edited src/auth/ghost.ts", lazy());
    expect(reads).toBe(1);
    expect(result.invented.map((fact) => fact.text)).toEqual(["src/auth/ghost.ts"]);
  });

  it("checks each file of a brace list as its whole path and flags only the invented one", () => {
    const result = guardVerbatim("- src/auth/{login.ts, ghost.ts} — edited", source);
    expect(result.invented).toEqual([{ kind: "path", text: "src/auth/ghost.ts" }]);
    expect(result.summary).toBe(`- src/auth/{login.ts, ${verbatimFlag("path")}} — edited`);
    // a name that occurs in the source only under another folder is still invented here
    expect(guardVerbatim("- lib/{login.ts, x.ts} — read", source).invented.map((f) => f.text)).toEqual(["lib/login.ts", "lib/x.ts"]);
  });

  it("flags an invented fact in place when the line states something true as well", () => {
    const result = guardVerbatim("- edited src/auth/login.ts and src/auth/session.ts", source);
    expect(result.summary).toBe(`- edited src/auth/login.ts and ${verbatimFlag("path")}`);
    expect(result).toMatchObject({ checked: 2, removed: 0, flagged: 1 });
  });

  it("flags rather than removes an invented fact inside a list item that says more than a few words", () => {
    const result = guardVerbatim("- the user wants one place for settings, so config moves to src/settings.py later", source);
    expect(result.summary).toContain(verbatimFlag("path"));
    expect(result.summary).toContain("one place for settings");
    expect(result.summary).not.toContain("src/settings.py");
    expect(result.flagged).toBe(1);
  });

  it("flags an invented command, a made-up identifier and an invented quoted ask", () => {
    const result = guardVerbatim(
      ["- ran `pnpm run lint` to check the login flow there", "- calls verify_password before the check", '- user asked: "rewrite the whole thing in Rust"'].join("\n"),
      source,
    );
    expect(result.invented).toEqual([
      { kind: "command", text: "pnpm run lint" },
      { kind: "identifier", text: "verify_password" },
      { kind: "quote", text: "rewrite the whole thing in Rust" },
    ]);
    expect(result.summary).not.toMatch(/pnpm run lint|verify_password|whole thing in Rust/);
  });

  it("accepts a fact shortened with an ellipsis when each side of the cut is in the source", () => {
    expect(guardVerbatim("- ran `cd /repo && pnpm … core`", source).invented).toEqual([]);
    expect(guardVerbatim("- ran `cd /repo && yarn … core`", source).invented).toHaveLength(1);
  });

  it("reads a command inside JSON tool arguments as written, without its escapes", () => {
    const request = { messages: [call("terminal", { command: 'pnpm test --filter "core"' })], maxTokens: 500 };
    const rawArguments = request.messages[0]!.tool_calls![0]!.function.arguments;
    expect(guardVerbatim('- ran `pnpm test --filter "core"`', verbatimSource([rawArguments])).invented).toHaveLength(1);
    expect(guardVerbatim('- ran `pnpm test --filter "core"`', verbatimSource(requestSourceTexts(request))).invented).toEqual([]);
  });

  it("compares case-insensitively with whitespace collapsed and typographic quotes made plain", () => {
    const result = guardVerbatim("- asked: \u201CFix  the LOGIN bug\u201D in SRC/auth/login.ts", source);
    expect(result.invented).toEqual([]);
  });

  it("takes PascalCase words in prose for names, not identifiers, but checks them inside backticks", () => {
    expect(lineFacts("- a TypeScript project on GitHub")).toEqual([]);
    expect(guardVerbatim("- `SessionRefresher` was added", source).invented).toEqual([{ kind: "identifier", text: "SessionRefresher" }]);
  });

  it("does not pair the quotes of two calls into one quote", () => {
    expect(lineFacts('- f("a") -> 3 hits | f("b") -> 0 hits').filter((fact) => fact.kind === "quote")).toEqual([]);
  });

  it("treats the previous summary, the head's asks and the latest asks of a request as source", () => {
    const request = { messages: [user("run the tests")], maxTokens: 500, previousSummary: "- edited lib/old.py", goalContext: ["build app/main.py"], recentUserAsks: ["also docs/guide.md"] };
    const requestSource = verbatimSource(requestSourceTexts(request));
    expect(guardVerbatim("- lib/old.py, app/main.py, docs/guide.md", requestSource).invented).toEqual([]);
  });

  it("reads the brace lists of a previous summary as whole paths, so an updated summary may regroup them", () => {
    const request = { messages: [user("now add the index")], maxTokens: 500, previousSummary: "## Relevant Files\n- ~/.claude/{projects/, history.jsonl, __store.db} — in a command" };
    const requestSource = verbatimSource(requestSourceTexts(request));
    const result = guardVerbatim("## Relevant Files\n- ~/.claude/history.jsonl — in a command\n- ~/.claude/{__store.db, ghost.db} — read", requestSource);
    expect(result.invented).toEqual([{ kind: "path", text: "~/.claude/ghost.db" }]);
  });

  it("never changes a summary made only of facts taken from the source", () => {
    const facts = ["src/auth/login.ts", "`pnpm test --filter`", "validate_token", "refreshSession", '"keep the public API stable"', "`cd /repo`"];
    const line = fc.tuple(fc.constantFrom("- ", "* ", "1. ", ""), fc.array(fc.oneof(fc.constantFrom(...facts), fc.constantFrom("and", "then", "checked", "ran", "edited", "—")), { maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        const summary = lines.map(([mark, words]) => mark + words.join(" ")).join("\n");
        const result = guardVerbatim(summary, source);
        expect(result.summary).toBe(summary);
        expect(result.removed + result.flagged).toBe(0);
      }),
    );
  });

  it("leaves the offline summarizer's summary of the FastAPI example unchanged", async () => {
    const messages = fastApiConversation().slice(2, 40);
    messages.push(...toolTurn("terminal", { command: "cd /srv/app && pytest -k login" }, "FAILED tests/test_api.py::test_login - AssertionError"));
    messages.push(call("read_file", { path: "app/auth.py" }));
    const request = { messages, maxTokens: 2_000 };
    const summary = await new ExtractiveSummarizer({ tokenCounter: roughCounter }).summarize(request);
    const result = guardVerbatim(summary, verbatimSource(requestSourceTexts(request)));
    expect(result.checked).toBeGreaterThan(10);
    expect(result.invented).toEqual([]);
  });
});
