/** No secret of the redaction list reaches a summary model: the built-in compressor's LLM summarizer and lcm's, over a loopback OpenAI-compatible server. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor, OpenAICompatibleSummarizer } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import type { ChatMessage } from "../src/core.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const server = useOpenAIFixtureServer({ kind: "success", content: "## Goal\n- fixture summary" });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** One of each kind the summarizers redact: provider, GitHub, AWS and Slack keys, a JSON Web Token, a password in a URL, an assignment. */
const SECRETS = {
  openai: "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
  github: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  aws: "AKIAABCDEFGHIJKLMNOP",
  slack: "xoxb-1234567890-abcdefghij",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  urlPassword: "hunter2hunter2",
  assigned: "s3cr3t-value-42",
};

/** A conversation that mentions every secret in a user turn, a tool call's arguments and a tool's output. */
function leaky(turns: number): ChatMessage[] {
  const base = conversation(turns);
  // the kinds a secret's own shape gives away; a password only by where it stands (a URL, an assignment)
  const all = [SECRETS.openai, SECRETS.github, SECRETS.aws, SECRETS.slack, SECRETS.jwt].join(" ");
  return [
    ...base.slice(0, 2),
    { role: "user", content: `Use these: ${SECRETS.openai} ${SECRETS.github} and postgres://app:${SECRETS.urlPassword}@db/main` },
    { role: "assistant", content: "", tool_calls: [{ id: "s1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `curl -H "Authorization: Bearer ${SECRETS.jwt}" -H "X-Aws: ${SECRETS.aws}" api` }) } }] },
    { role: "tool", tool_call_id: "s1", content: `ok ${SECRETS.slack} password=${SECRETS.assigned} ${all}` },
    ...base.slice(2),
  ];
}

function expectNoSecretSent(): void {
  const sent = server.current.requests.map((r) => r.rawBody).join("\n");
  expect(server.current.requests.length).toBeGreaterThan(0);
  for (const [kind, secret] of Object.entries(SECRETS)) expect(sent.includes(secret), `${kind} reached the summary model: …${sent.slice(Math.max(0, sent.indexOf(secret) - 120), sent.indexOf(secret) + 40)}…`).toBe(false);
}

const summarizer = () => new OpenAICompatibleSummarizer({ baseUrl: server.current.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });

describe("secrets never reach a summary model", () => {
  it("through the built-in compressor's LLM summarizer", async () => {
    const engine = new ContextCompressor({ model: { model: "test-model", contextLength: 8_000 }, summarizer: summarizer() });
    await engine.compress(leaky(30), { force: true });
    expectNoSecretSent();
  });

  it("through lcm's summaries", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer() });
    await engine.compress(leaky(40));
    expectNoSecretSent();
    engine.close();
  });
});
