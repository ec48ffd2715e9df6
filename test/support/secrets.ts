/** One secret of each kind the summarizers redact, a conversation that leaks them all, and the check that none reached a summary model. */
import type { ChatMessage } from "../../packages/core/src/messages/schema.js";
import type { RecordedRequest } from "./openaiFixtureServer.js";

/** One of each kind the summarizers redact: provider, GitHub, AWS and Slack keys, a JSON Web Token, a password in a URL, an assignment. */
export const SECRETS = {
  openai: "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
  github: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  aws: "AKIAABCDEFGHIJKLMNOP",
  slack: "xoxb-1234567890-abcdefghij",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  urlPassword: "hunter2hunter2",
  assigned: "s3cr3t-value-42",
};

/** `base` with every secret in a user turn, a tool call's arguments and a tool's output, after its first two messages. */
export function withLeakedSecrets(base: readonly ChatMessage[]): ChatMessage[] {
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

/** The secrets (kind and where they stood) that reached the summary model in `requests`; a note when no request was recorded at all. */
export function leakedSecrets(requests: readonly RecordedRequest[]): string[] {
  if (requests.length === 0) return ["no request reached the summary model"];
  const sent = requests.map((r) => r.rawBody).join("\n");
  return Object.entries(SECRETS)
    .filter(([, secret]) => sent.includes(secret))
    .map(([kind, secret]) => `${kind} reached the summary model: …${sent.slice(Math.max(0, sent.indexOf(secret) - 120), sent.indexOf(secret) + 40)}…`);
}
