/**
 * A real node:http server on 127.0.0.1 that speaks Anthropic's Messages API (`POST /v1/messages`),
 * answering each request with the next scripted step (loopbackFixtureServer.ts). `origin` is the root
 * `@anthropic-ai/sdk` takes, `baseUrl` (…/v1) the one `@ai-sdk/anthropic` takes. Answers are never
 * streamed.
 */
import { startFixtureServer, type FixtureDialect, type FixtureReply, type FixtureServer } from "./loopbackFixtureServer.js";

/** The Messages API's error type for an HTTP status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  return status >= 500 ? "api_error" : "invalid_request_error";
}

/** A Messages API message: text and tool_use blocks, the stop reason, and the usage. */
function messageBody(reply: FixtureReply, model: string): unknown {
  const text = reply.content ?? "";
  const tools = (reply.toolCalls ?? []).map((call, i) => ({
    type: "tool_use",
    id: call.id ?? `toolu_fixture_${i}_${Math.random().toString(36).slice(2, 8)}`,
    name: call.name,
    input: typeof call.arguments === "string" ? JSON.parse(call.arguments) : call.arguments,
  }));
  return {
    id: `msg_fixture_${Math.random().toString(36).slice(2, 10)}`,
    type: "message",
    role: "assistant",
    model: reply.model ?? model,
    content: [...(text !== "" || tools.length === 0 ? [{ type: "text", text }] : []), ...tools],
    stop_reason: tools.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    // input_tokens counts only what came after the last cache breakpoint: the prompt less its cache reads and writes
    usage: {
      input_tokens: (reply.usage?.prompt_tokens ?? 10) - (reply.usage?.cache_read_tokens ?? 0) - (reply.usage?.cache_write_tokens ?? 0),
      output_tokens: reply.usage?.completion_tokens ?? Math.ceil(text.length / 4) + 1,
      cache_creation_input_tokens: reply.usage?.cache_write_tokens ?? 0,
      cache_read_input_tokens: reply.usage?.cache_read_tokens ?? 0,
    },
  };
}

/** The Messages API on the wire: a message, an error. */
export const ANTHROPIC_DIALECT: FixtureDialect = {
  route: "/v1/messages",
  errorBody: (status, message) => ({ type: "error", error: { type: errorType(status), message } }),
  answer: (reply, model) => ({ json: messageBody(reply, model) }),
};

/** Starts the Messages API fixture server on 127.0.0.1, port 0 (a free port). */
export function startAnthropicFixtureServer(): Promise<FixtureServer> {
  return startFixtureServer(ANTHROPIC_DIALECT);
}
