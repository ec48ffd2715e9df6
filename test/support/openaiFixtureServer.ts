/**
 * A real node:http server on 127.0.0.1 that speaks the OpenAI chat-completions API
 * (`POST /v1/chat/completions`), answering each request with the next scripted step.
 */
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer of the fixture server. */
export type FixtureStep =
  | { kind: "success"; content: string; model?: string }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" }
  /** A success whose headers come at once and whose body then arrives one byte per `byteIntervalMs`. */
  | { kind: "drip"; content: string; byteIntervalMs: number }
  | { kind: "empty" }
  | { kind: "garbage" }
  | { kind: "reset" }
  | { kind: "reply"; reply: FixtureReply | ((request: RecordedRequest) => FixtureReply) }
  /** `then`, answered after `ms` milliseconds (a slow summarizer). */
  | { kind: "delay"; ms: number; then: FixtureStep };

/**
 * A scripted chat-completions answer: text and/or tool calls (`finish_reason: "tool_calls"` when there are
 * calls; `arguments` given as a value is sent as its JSON) with the usage to report (default 10 prompt tokens);
 * a request with `stream: true` gets it as server-sent chunks, the usage last.
 */
export interface FixtureReply {
  content?: string | null;
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  usage?: { prompt_tokens: number; completion_tokens?: number };
  model?: string;
}

/** A request the fixture server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: any;
  /** The raw body text. */
  rawBody: string;
  /** True once the whole answer was sent. */
  answered: boolean;
}

/** A running fixture server. */
export interface FixtureServer {
  /** e.g. "http://127.0.0.1:54321/v1" */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues responses, one per request; when the queue is empty the default step answers. */
  script(...steps: FixtureStep[]): void;
  /** Sets the step used when the queue is empty (initially a success with "fixture summary"). */
  setDefault(step: FixtureStep): void;
  /** Ends hanging requests and open sockets, then stops the server. */
  close(): Promise<void>;
}

export const DEFAULT_STEP: FixtureStep = { kind: "success", content: "fixture summary" };

function openAIErrorBody(status: number): unknown {
  const type =
    status === 401
      ? "invalid_request_error"
      : status === 429
        ? "insufficient_quota"
        : status >= 500
          ? "server_error"
          : "invalid_request_error";
  return { error: { message: `fixture error ${status}`, type, param: null, code: type } };
}

function completionBody(content: string, model: string): unknown {
  return {
    id: `chatcmpl-fixture-${Math.random().toString(36).slice(2, 10)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: Math.ceil(content.length / 4), total_tokens: 10 + Math.ceil(content.length / 4) },
  };
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
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
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

/** Sends `chunks` as server-sent events ending with `[DONE]`. */
function sendEvents(res: ServerResponse, chunks: unknown[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end([...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), "data: [DONE]\n\n"].join(""));
}

/** Starts the fixture server on 127.0.0.1, port 0 (a free port). */
export async function startOpenAIFixtureServer(): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const queue: FixtureStep[] = [];
  let defaultStep: FixtureStep = DEFAULT_STEP;
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();

  const delays = new Set<NodeJS.Timeout>();

  const answer = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest, given?: FixtureStep): void => {
    if (req.method !== "POST" || !recorded.path.endsWith("/chat/completions")) {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${recorded.path}`, type: "invalid_request_error" } });
      return;
    }
    const step = given ?? queue.shift() ?? defaultStep;
    const requestedModel = typeof recorded.body?.model === "string" ? recorded.body.model : "fixture-model";
    switch (step.kind) {
      case "delay": {
        const timer = setTimeout(() => {
          delays.delete(timer);
          if (!res.destroyed) answer(req, res, recorded, step.then);
        }, step.ms);
        delays.add(timer);
        return;
      }
      case "success":
        sendJson(res, 200, completionBody(step.content, step.model ?? requestedModel));
        return;
      case "empty":
        sendJson(res, 200, completionBody("", requestedModel));
        return;
      case "status":
        sendJson(res, step.status, step.body ?? openAIErrorBody(step.status), step.headers);
        return;
      case "garbage":
        res.writeHead(200, { "content-type": "application/json" });
        res.end("<html>this is not json{");
        return;
      case "reset":
        req.socket.destroy();
        return;
      case "hang":
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      case "drip": {
        const bytes = Buffer.from(JSON.stringify(completionBody(step.content, requestedModel)));
        res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
        res.flushHeaders();
        hanging.add(res);
        let sent = 0;
        const timer = setInterval(() => {
          res.write(bytes.subarray(sent, sent + 1));
          if (++sent === bytes.length) {
            clearInterval(timer);
            res.end();
          }
        }, step.byteIntervalMs);
        res.on("close", () => {
          clearInterval(timer);
          hanging.delete(res);
        });
        return;
      }
      case "reply":
        {
          const body = replyBody(typeof step.reply === "function" ? step.reply(recorded) : step.reply, requestedModel);
          if (recorded.body?.stream === true) sendEvents(res, streamChunks(body as CompletionBody));
          else sendJson(res, 200, body);
        }
        return;
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, rawBody, answered: false };
      res.on("finish", () => (recorded.answered = true));
      requests.push(recorded);
      answer(req, res, recorded);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...steps) {
      queue.push(...steps);
    },
    setDefault(step) {
      defaultStep = step;
    },
    close() {
      for (const timer of delays) clearTimeout(timer);
      delays.clear();
      for (const res of hanging) res.destroy();
      hanging.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
