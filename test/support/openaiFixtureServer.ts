/**
 * A real node:http server on 127.0.0.1 that speaks the OpenAI chat-completions API
 * (`POST /v1/chat/completions`), answering each request with the next scripted step.
 */
import { startFixtureServer, type FixtureDialect, type FixtureReply, type FixtureServer } from "./loopbackFixtureServer.js";

export { DEFAULT_STEP, type FixtureReply, type FixtureServer, type FixtureStep, type RecordedRequest } from "./loopbackFixtureServer.js";

function openAIErrorBody(status: number, message: string): unknown {
  const type =
    status === 401
      ? "invalid_request_error"
      : status === 429
        ? "rate_limit_exceeded"
        : status >= 500
          ? "server_error"
          : "invalid_request_error";
  return { error: { message, type, param: null, code: type } };
}

function replyBody(reply: FixtureReply, model: string): unknown {
  const calls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_fixture_${i}_${Math.random().toString(36).slice(2, 8)}`,
    type: "function",
    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const content = reply.content === undefined ? (calls.length > 0 ? null : "") : reply.content;
  const prompt = reply.usage?.prompt_tokens ?? 10;
  const completion = reply.usage?.completion_tokens ?? Math.ceil((content ?? "").length / 4) + 1;
  return {
    id: `chatcmpl-fixture-${Math.random().toString(36).slice(2, 10)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? model,
    choices: [{ index: 0, message: { role: "assistant", content, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...(reply.usage?.cache_read_tokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: reply.usage.cache_read_tokens } }) },
  };
}

/** The parts of a chat completion the streamed form repeats. */
interface CompletionBody {
  id: string;
  created: number;
  model: string;
  choices: [{ message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }];
  usage: unknown;
}

/** A completion as `stream: true` chunks: the text, each tool call, the finish reason, then the usage (as with `include_usage`). */
function streamChunks(body: CompletionBody): unknown[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id: body.id, object: "chat.completion.chunk", created: body.created, model: body.model, choices, ...extra });
  const { message, finish_reason } = body.choices[0];
  const calls = (message.tool_calls ?? []).map((call, index) => chunk([{ index: 0, delta: { tool_calls: [{ index, ...(call as object) }] }, finish_reason: null }]));
  return [
    chunk([{ index: 0, delta: { role: "assistant", content: message.content ?? "" }, finish_reason: null }]),
    ...calls,
    chunk([{ index: 0, delta: {}, finish_reason }]),
    chunk([], { usage: body.usage }),
  ];
}

/** The chat-completions API on the wire: a completion, its streamed chunks, an error. */
export const OPENAI_DIALECT: FixtureDialect = {
  route: "/chat/completions",
  errorBody: openAIErrorBody,
  answer(reply: FixtureReply, model: string, stream: boolean) {
    const body = replyBody(reply, model);
    return stream ? { events: [...streamChunks(body as CompletionBody).map((c) => `data: ${JSON.stringify(c)}\n\n`), "data: [DONE]\n\n"] } : { json: body };
  },
};

/** Starts the fixture server on 127.0.0.1, port 0 (a free port). */
export function startOpenAIFixtureServer(): Promise<FixtureServer> {
  return startFixtureServer(OPENAI_DIALECT);
}
