import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/summarizers/redact.js";
import { serializeTurns } from "../../src/summarizers/serialize.js";

describe("redactSecrets", () => {
  it.each([
    ["an OpenAI key", "key sk-abcdefghijklmnopqrstuvwxyz123456 here", "key [REDACTED] here"],
    ["an OpenAI project key", "sk-proj-AbC_dEf-1234567890abcdefgh", "[REDACTED]"],
    ["an Anthropic key", "use sk-ant-api03-abcdefghijklmnopqrstuvwx_yz-0123", "use [REDACTED]"],
    ["an OpenRouter key", "sk-or-v1-0123456789abcdef0123456789abcdef", "[REDACTED]"],
    ["a GitHub classic token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"],
    ["a GitHub fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "[REDACTED]"],
    ["a Slack bot token", "xoxb-123456789012-abcdefghijkl", "[REDACTED]"],
    ["a Slack user token", "xoxp-123456789012-abcdefghijkl", "[REDACTED]"],
    ["an AWS access key id", "aws AKIAIOSFODNN7EXAMPLE ok", "aws [REDACTED] ok"],
    ["a Bearer token", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "Authorization: Bearer [REDACTED]"],
    ["an api_key assignment", "api_key=abc123secret", "api_key=[REDACTED]"],
    ["an env-style key assignment", "OPENAI_API_KEY=local-key-value", "OPENAI_API_KEY=[REDACTED]"],
    ["a token: value pair", "token: 9f8e7d6c5b4a", "token: [REDACTED]"],
    ["a password assignment", "password=hunter2", "password=[REDACTED]"],
    ["a quoted JSON secret", '{"password": "hunter2", "user": "bob"}', '{"password": "[REDACTED]", "user": "bob"}'],
    ["a password in a URL", "postgres://admin:s3cr3t@db.example.com:5432/app", "postgres://admin:[REDACTED]@db.example.com:5432/app"],
  ])("redacts %s", (_what, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("leaves ordinary text alone", () => {
    const text = "max_tokens: 2000, see https://example.com/docs and sk-learn is a library; port 8000";
    expect(redactSecrets(text)).toBe(text);
  });

  it("keeps a shell reference assigned to a secret's name, which is the script and no secret, and still redacts a literal", () => {
    const script = 'TOKEN=$(gh auth token) && API_KEY=$OPENAI_API_KEY && SECRET=${VAULT_SECRET} curl -s "$URL"';
    expect(redactSecrets(script)).toBe(script);
    expect(redactSecrets("TOKEN=abc123def && curl")).toBe("TOKEN=[REDACTED] && curl");
  });

  it("redacts a JSON Web Token wherever it stands, and leaves a dotted name that is no token", () => {
    const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFsaWNlIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    expect(redactSecrets(`curl -H "X-Session: ${jwt}" https://api.example.com`)).toBe('curl -H "X-Session: [REDACTED]" https://api.example.com');
    expect(redactSecrets(`{"jwt":"${jwt}"}`)).not.toContain(jwt.slice(0, 40));
    expect(redactSecrets("eyJustAName.config.loader")).toBe("eyJustAName.config.loader");
  });

  it("is idempotent", () => {
    const text = "api_key=abc123 postgres://a:b@h sk-abcdefghijklmnopqrstuvwxyz";
    expect(redactSecrets(redactSecrets(text))).toBe(redactSecrets(text));
  });

  it("is applied by serializeTurns to message bodies and tool arguments", () => {
    const out = serializeTurns([
      { role: "user", content: "my key is sk-abcdefghijklmnopqrstuvwxyz123456" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "terminal", arguments: '{"command":"curl -H \\"Authorization: Bearer abcdefgh12345678\\""}' } }] },
    ]);
    expect(out).not.toContain("sk-abcdefghijklmnopqrstuvwxyz123456");
    expect(out).not.toContain("abcdefgh12345678");
  });
});
