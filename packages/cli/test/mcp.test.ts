/**
 * `context-engine mcp`, as an MCP client runs it: the SDK's own Client over StdioClientTransport spawns
 * the built command against real SQLite files (a session store and an lcm store, each holding two
 * owners' look-alike sessions), lists the tools and calls each, as one scope.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "@context-engine/core";
import { sessionSearchToolSchema } from "@context-engine/core/store";
import { LcmEngine } from "../../../plugins/lcm/src/engine.js";
import { LcmStore } from "../../../plugins/lcm/src/store/LcmStore.js";
import { adversarialCalls, BOB_MARKER, SCOPE_SESSIONS, seedTwoScopes, type SeededScopes } from "../../../plugins/lcm/test/scopeIsolationContract.js";
import { withoutId } from "../../core/test/store/contract/scopeIsolationContract.js";
import { cliBin, repoRoot, runCli, tempDir } from "../../../test/support/cli.js";

/** A word in every turn of bob's, in both stores, that no call passes: seen in an answer, it came from his sessions. */
const BOB_HIDDEN = "zebralagoon";

let dir: string;
let seeded: SeededScopes;
const open: Array<{ client: Client }> = [];

beforeAll(async () => {
  dir = tempDir("ce-mcp-");
  const sessions = openSqliteStore(join(dir, "sessions.db"));
  for (const [id, scope, text] of [
    ["s-alice", "alice", "Plan the flamingo migration: alicenote"],
    ["s-bob", "bob", `Plan the flamingo migration: ${BOB_MARKER} ${BOB_HIDDEN}`],
    ["s-default", undefined, "Plan the flamingo migration for the default owner"],
  ] as const) {
    const session = sessions.createSession({ id, platform: "cli", title: `${id} notes`, ...(scope ? { scope } : {}) });
    sessions.appendMessages(session.id, [
      { role: "user", content: text },
      { role: "assistant", content: `Done: ${text}` },
    ]);
  }
  sessions.close();
  const lcm = new LcmStore(join(dir, "lcm.db"));
  seeded = await seedTwoScopes(lcm);
  lcm.close();
  // lcm from its package, as a user lists it; an LLM summarizer configured so lcm offers lcm_expand_query, and compact_context on
  writeFileSync(
    join(dir, "config.yaml"),
    [
      "context:",
      "  engine: lcm",
      "plugins:",
      `  - ${join(repoRoot, "plugins/lcm")}`,
      "lcm:",
      "  db_path: lcm.db",
      "compression:",
      "  compact_tool:",
      "    enabled: true",
      "auxiliary:",
      "  compression:",
      "    base_url: http://127.0.0.1:9/v1",
      "    api_key: test-key",
      "    model: test-model",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await Promise.all(open.map(({ client }) => client.close()));
});

/** A connected SDK client of `context-engine mcp <args>` run in `cwd`, with the server's stderr and any protocol error the client saw. */
async function connect(args: string[], cwd = dir): Promise<{ client: Client; stderr: () => string; protocolErrors: Error[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliBin, "mcp", ...args], cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "context-engine-test", version: "1.0.0" });
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  open.push({ client });
  return { client, stderr: () => stderr, protocolErrors };
}

/** The text of a call's answer (every served tool answers with one JSON text). */
function text(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  return (content[0] as { text: string }).text;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; json: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  const answer = text(result);
  return { text: answer, isError: result.isError === true, json: JSON.parse(answer) as Record<string, unknown> };
}

/** Expects `answer` to show nothing of bob's: his hidden word, his marker beyond what the call passed, his session ids. */
function expectNothingOfBob(answer: string, args: Record<string, unknown>): void {
  const label = JSON.stringify(args).slice(0, 100);
  const passed = Object.values(args).filter((v): v is string => typeof v === "string");
  let shown = answer;
  for (const value of passed) shown = shown.split(value).join("<given>");
  expect(answer.toLowerCase(), label).not.toContain(BOB_HIDDEN);
  expect(shown, label).not.toContain(BOB_MARKER);
  for (const session of [...SCOPE_SESSIONS.bob, "s-bob"]) expect(shown, label).not.toContain(`"${session}"`);
}

describe("context-engine mcp, as one scope", () => {
  it("lists session_search and the engine's read-only tools with the engine's own argument schemas, marked read-only, and no tool that writes", async () => {
    const { client, stderr, protocolErrors } = await connect(["--scope", "alice"]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["session_search", "lcm_grep", "lcm_describe", "lcm_expand"]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    const engine = new LcmEngine({ dbPath: ":memory:" });
    const declared = [sessionSearchToolSchema(), ...engine.getToolSchemas()];
    await engine.close();
    const byName = (name: string): Tool => tools.find((t) => t.name === name)!;
    for (const schema of declared) expect(byName(schema.function.name).inputSchema, schema.function.name).toEqual({ ...schema.function.parameters, type: "object" });
    expect(stderr()).toContain("context-engine mcp: not served (engine lcm does not mark them read-only): lcm_expand_query, compact_context");
    expect(stderr()).toContain(`context-engine mcp: serving session_search (${join(dir, "sessions.db")}), lcm_grep, lcm_describe, lcm_expand (engine lcm) over stdio, reading scope 'alice'`);
    expect(client.getInstructions()).toBe(
      "Read-only search of stored agent sessions (scope 'alice'): session_search, lcm_grep, lcm_describe, lcm_expand. Answers are JSON. lcm_grep, lcm_describe, lcm_expand run as a session of this server's own, which may hold nothing: to read the stored sessions, ask for every session of the scope where a tool takes that choice (sessions: \"all\").",
    );
    // a tool the engine offers but does not mark read-only is not callable either
    const refused = await call(client, "compact_context", {});
    expect([refused.isError, refused.json.code]).toEqual([true, "not_found"]);
    expect(protocolErrors).toEqual([]);
  });

  it("session_search finds, browses and scrolls the scope's sessions only, and reads another scope's session as one that does not exist", async () => {
    const { client } = await connect(["--scope", "alice"]);
    const found = await call(client, "session_search", { query: "flamingo migration", limit: 10 });
    expect(found.isError).toBe(false);
    expect((found.json.sessions as { session_id: string }[]).map((s) => s.session_id)).toEqual(["s-alice"]);
    expect(found.text).toContain("alicenote");
    const recent = await call(client, "session_search", {});
    expect((recent.json.sessions as { session_id: string }[]).map((s) => s.session_id)).toEqual(["s-alice"]);
    const scrolled = await call(client, "session_search", { session_id: "s-alice", around_seq: 1 });
    expect((scrolled.json.messages as { text: string }[])[0]!.text).toBe("Plan the flamingo migration: alicenote");
    const bobs = await call(client, "session_search", { session_id: "s-bob", around_seq: 1 });
    const nobodys = await call(client, "session_search", { session_id: "s-nobody", around_seq: 1 });
    expect([bobs.isError, bobs.json.code]).toEqual([true, "not_found"]);
    expect(withoutId(bobs.text, "s-bob")).toBe(withoutId(nobodys.text, "s-nobody"));
    const searchedInBobs = await call(client, "session_search", { query: "flamingo", session_id: "s-bob" });
    expect(withoutId(searchedInBobs.text, "s-bob")).toBe(withoutId((await call(client, "session_search", { query: "flamingo", session_id: "s-nobody" })).text, "s-nobody"));
    for (const answer of [found, recent, bobs, searchedInBobs]) expectNothingOfBob(answer.text, {});
    const bad = await call(client, "session_search", { limit: 0 });
    expect([bad.isError, bad.json.code]).toEqual([true, "invalid_arguments"]);
    expect(bad.json.error).toContain("limit");
  });

  it("lcm_grep, lcm_describe and lcm_expand answer as the engine does, from the scope's lcm sessions only", async () => {
    const { client } = await connect(["--scope", "alice"]);
    const grep = await call(client, "lcm_grep", { pattern: "flamingo", sessions: "all", limit: 100 });
    expect(grep.isError).toBe(false);
    expect(new Set((grep.json.matches as { session: string }[]).map((m) => m.session))).toEqual(new Set(SCOPE_SESSIONS.alice));
    expect(grep.text).toContain("alicenote");
    const described = await call(client, "lcm_describe", { sessions: "all" });
    const listed = (described.json.sessions as { session: string }[]).map((s) => s.session);
    expect(listed).toEqual(expect.arrayContaining([...SCOPE_SESSIONS.alice]));
    const aliceSummary = seeded.aliceSummaries[0]!;
    const expanded = await call(client, "lcm_expand", { id: aliceSummary, sessions: "all" });
    expect(expanded.isError).toBe(false);
    expect(expanded.text).toContain("alicenote");
    // the same answer the engine gives its own agent, calling as alice
    const store = new LcmStore(join(dir, "lcm.db"));
    const engine = new LcmEngine({ store });
    try {
      const own = await engine.handleToolCall("lcm_expand", { id: aliceSummary, sessions: "all" }, { sessionId: "alice-1", scope: "alice" });
      expect(expanded.json).toEqual(JSON.parse(own));
    } finally {
      await engine.close();
      store.close();
    }
    for (const answer of [grep, described, expanded]) expectNothingOfBob(answer.text, {});
  });

  it("shows no call as alice anything of bob's lcm sessions, and reads his ids as ids that do not exist", async () => {
    const { client } = await connect(["--scope", "alice"]);
    for (const bob of [seeded.bobMessages[0]!, seeded.bobSummaries.at(-1)!]) {
      for (const [name, args] of adversarialCalls(bob).filter(([tool]) => tool !== "lcm_expand_query")) {
        const answer = await call(client, name, args);
        expectNothingOfBob(answer.text, args);
        const unknown = bob.startsWith("msg_") ? "msg_999999999" : "sum_0000000000000000";
        const asUnknown = await call(client, name, JSON.parse(JSON.stringify(args).split(bob).join(unknown)) as Record<string, unknown>);
        expect(withoutId(answer.text, bob), `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(withoutId(asUnknown.text, unknown));
      }
    }
  });

  it("serves another scope's sessions to a server of that scope, and none of the first's", async () => {
    const { client } = await connect(["--scope", "bob"]);
    const grep = await call(client, "lcm_grep", { pattern: "flamingo", sessions: "all", limit: 100 });
    expect(new Set((grep.json.matches as { session: string }[]).map((m) => m.session))).toEqual(new Set(SCOPE_SESSIONS.bob));
    const found = await call(client, "session_search", { query: "flamingo migration", limit: 10 });
    expect((found.json.sessions as { session_id: string }[]).map((s) => s.session_id)).toEqual(["s-bob"]);
    for (const answer of [grep, found]) expect(answer.text).not.toContain("alicenote");
  });

  it("with --all-scopes serves session_search over every scope and none of the engine's tools", async () => {
    const { client, stderr } = await connect(["--all-scopes"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["session_search"]);
    const found = await call(client, "session_search", { query: "flamingo migration", limit: 10 });
    expect((found.json.sessions as { session_id: string }[]).map((s) => s.session_id).sort()).toEqual(["s-alice", "s-bob", "s-default"]);
    expect(stderr()).toContain("--all-scopes: session_search reads every scope; the engine's tools read one scope each and are not served");
  });

  it("stops when the client closes the connection", async () => {
    const { client, stderr } = await connect(["--scope", "alice"]);
    const started = Date.now();
    await client.close();
    // the transport waits 2 s for the process to exit on its own before it kills it
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(stderr()).toContain("context-engine mcp: the client closed the connection; stopped");
  });
});

describe("context-engine mcp with a plugin's engine", () => {
  it("serves the tools any configured engine marks read-only through the host, with the server's scope, and keeps the plugin's console output off the protocol", async () => {
    const project = tempDir("ce-mcp-plugin-");
    mkdirSync(join(project, "plugins/context_engine/notes"), { recursive: true });
    writeFileSync(join(project, "config.yaml"), "context:\n  engine: notes\n");
    writeFileSync(
      join(project, "plugins/context_engine/notes/index.ts"),
      `import { ContextEngine } from "@context-engine/core";
console.log("notes engine loaded");
const tool = (name: string) => ({ type: "function" as const, function: { name, description: name + " of the notes", parameters: { type: "object", properties: { word: { type: "string" } } } } });
export default class Notes extends ContextEngine {
  readonly name = "notes";
  shouldCompress() { return false; }
  async compress(messages: unknown[]) { return messages; }
  override getToolSchemas() { return [tool("notes_find"), tool("notes_add")]; }
  override toolTraits(name: string) { return name === "notes_find" ? { readOnly: true } : {}; }
  override async handleToolCall(name: string, args: unknown, context?: { scope?: string }) {
    console.log("notes tool called");
    return name === "notes_find" ? JSON.stringify({ found: args, scope: context?.scope }) : super.handleToolCall(name, args, context);
  }
}
`,
    );
    const { client, stderr, protocolErrors } = await connect(["--scope", "team-7"], project);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["notes_find"]);
    expect(await call(client, "notes_find", { word: "flamingo" })).toEqual({ text: '{"found":{"word":"flamingo"},"scope":"team-7"}', isError: false, json: { found: { word: "flamingo" }, scope: "team-7" } });
    expect((await call(client, "notes_add", { word: "x" })).json.code).toBe("not_found");
    expect(stderr()).toContain("notes engine loaded");
    expect(stderr()).toContain("notes tool called");
    expect(stderr()).toContain("not served (engine notes does not mark them read-only): notes_add");
    expect(protocolErrors).toEqual([]);
  });
});

describe("the README's MCP registrations", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Search your past agent sessions from your agent (MCP)\n"), readme.indexOf("\n## Configuration\n"));
  /** The section's fenced blocks of `lang`, one after the other. */
  const block = (lang: string): string => [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!).join("");

  it("start the same command in Claude Code, Codex and Cursor, and it serves session_search over the store they name", async () => {
    const claude = block("sh").split("\n").find((line) => line.startsWith("claude mcp add "))!.split(" -- ")[1]!.split(" ");
    const toml = block("toml");
    expect(toml).toMatch(/^\[mcp_servers\.sessions\]\n/);
    const codex = [JSON.parse(/^command = (".*")$/m.exec(toml)![1]!) as string, ...(JSON.parse(/^args = (\[.*\])$/m.exec(toml)![1]!) as string[])];
    const server = (JSON.parse(block("json")) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.sessions!;
    const cursor = [server.command, ...server.args];
    expect(codex).toEqual(claude);
    expect(cursor).toEqual(claude);
    const [command, ...args] = cursor.map((part) => part.replace("/path/to/context-engine", repoRoot).replace("/path/to/sessions.db", join(dir, "sessions.db")));
    const transport = new StdioClientTransport({ command: command === "node" ? process.execPath : command!, args, cwd: tempDir("ce-mcp-client-"), stderr: "pipe" });
    const client = new Client({ name: "readme", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["session_search"]);
      expect((await call(client, "session_search", { query: "flamingo migration" })).text).toContain("default owner");
    } finally {
      await client.close();
    }
  });
});

describe("context-engine mcp, refusing to start", () => {
  it("says there is nothing to serve without a session store or an engine tool that reads, and names a missing --db and conflicting scope flags", async () => {
    const empty = tempDir("ce-mcp-empty-");
    const nothing = await runCli(["mcp"], empty);
    expect([nothing.code, nothing.stdout]).toEqual([1, ""]);
    expect(nothing.stderr).toContain(`context-engine mcp: nothing to serve: no session store (--db <file>; there is no ${join(empty, "sessions.db")}) and engine compressor marks no tool read-only`);
    const missing = await runCli(["mcp", "--db", "gone.db"], empty);
    expect([missing.code, missing.stdout]).toEqual([1, ""]);
    expect(missing.stderr).toContain(`no session store at ${join(empty, "gone.db")}`);
    const both = await runCli(["mcp", "--scope", "alice", "--all-scopes"], dir);
    expect([both.code, both.stderr]).toEqual([2, "context-engine mcp: give --scope or --all-scopes, not both (see `context-engine mcp --help`)\n"]);
    const blank = await runCli(["mcp", "--scope", " "], dir);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--scope must name a scope (a tenant or user id), got " "');
  });
});
