/** Secret redaction: API keys, tokens and passwords never leave the machine inside a summary request. */

/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** Key names whose assigned value is a secret (`api_key=…`, `"token": "…"`, `PASSWORD: …`). */
const SECRET_KEY_NAMES =
  "api[_-]?key|apikey|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|token|secret|client[_-]?secret|password|passwd|pwd";

/** Ordered rules: the most specific shapes first, generic assignments last. */
const RULES: ReadonlyArray<{ pattern: RegExp; replace: string }> = [
  // scheme://user:password@host → keep the user and host
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi, replace: `$1${REDACTED}$3` },
  // Provider keys: OpenAI / Anthropic / OpenRouter (sk-, sk-ant-, sk-or-, sk-proj-)
  { pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: REDACTED },
  // GitHub tokens
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replace: REDACTED },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replace: REDACTED },
  // Slack tokens
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: REDACTED },
  // AWS access key ids
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED },
  // JSON Web Tokens: three base64url parts, the first a JSON header (`eyJ` is `{"`) — a bearer credential
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  // Authorization: Bearer <token>
  { pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, replace: `$1${REDACTED}` },
  // key = value / key: value / "key": "value" — not a shell reference (`TOKEN=$(gh auth token)`, `TOKEN=$GH_TOKEN`): the script, not a secret
  {
    pattern: new RegExp(`(?<![A-Za-z0-9])((?:${SECRET_KEY_NAMES})["']?\\s*[:=]\\s*["']?)(?!\\[REDACTED\\]|\\$[({A-Za-z_])([^\\s"'\`,;&]+)`, "gi"),
    replace: `$1${REDACTED}`,
  },
];

/**
 * Replaces secrets in `text` with `[REDACTED]`: provider API keys (sk-…, sk-ant-…, sk-or-…), GitHub
 * tokens (ghp_…, github_pat_…), Slack tokens (xoxb-/xoxp-), AWS key ids (AKIA…), JSON Web Tokens (eyJ….….…), Bearer tokens,
 * `api_key=…` / `token: …` / `password=…` assignments and passwords in URLs. Idempotent.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) out = out.replace(rule.pattern, rule.replace);
  return out;
}
