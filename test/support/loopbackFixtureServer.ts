/**
 * A real node:http server on 127.0.0.1 that answers a model API's POST route with scripted steps: the
 * transport (recording, queue, hangs, resets, drips, delays, garbage) is shared; what a success, a reply
 * and an error look like on the wire is the API's {@link FixtureDialect} (openaiFixtureServer.ts,
 * anthropicFixtureServer.ts).
 */
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer of a fixture server. */
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
 * A scripted answer: text and/or tool calls (`arguments` given as a value is sent as its JSON) with the
 * usage to report (default 10 prompt tokens); a request with `stream: true` gets it as server-sent events
 * where the API's dialect streams.
 */
export interface FixtureReply {
  content?: string | null;
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  /** `cache_read_tokens` and `cache_write_tokens`: the prompt tokens read from and written to the prompt cache, in the dialect's usage fields. */
  usage?: { prompt_tokens: number; completion_tokens?: number; cache_read_tokens?: number; cache_write_tokens?: number };
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
  /** The API's base URL as SDKs take it, e.g. "http://127.0.0.1:54321/v1". */
  baseUrl: string;
  /** The server's root, e.g. "http://127.0.0.1:54321" (what `@anthropic-ai/sdk` takes). */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues responses, one per request; when the queue is empty the default step answers. */
  script(...steps: FixtureStep[]): void;
  /** Sets the step used when the queue is empty (initially a success with "fixture summary"). */
  setDefault(step: FixtureStep): void;
  /** Ends hanging requests and open sockets, then stops the server. */
  close(): Promise<void>;
}

/** A body sent whole, or server-sent events. */
export type DialectAnswer = { json: unknown } | { events: string[] };

/** What one model API looks like on the wire. */
export interface FixtureDialect {
  /** The route answered (`/v1/chat/completions`); anything else is a 404 in the dialect's error shape. */
  route: string;
  /** The body of an error with `status`. */
  errorBody(status: number, message: string): unknown;
  /** The answer to `reply` (`model`: what the request asked for); `stream` when the request asked for events. */
  answer(reply: FixtureReply, model: string, stream: boolean): DialectAnswer;
}

export const DEFAULT_STEP: FixtureStep = { kind: "success", content: "fixture summary" };

/** The usage a success of `content` reports: 10 prompt tokens, about 4 characters an output token. */
export function successUsage(content: string): NonNullable<FixtureReply["usage"]> {
  return { prompt_tokens: 10, completion_tokens: Math.ceil(content.length / 4) };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function send(res: ServerResponse, answer: DialectAnswer): void {
  if ("json" in answer) return sendJson(res, 200, answer.json);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(answer.events.join(""));
}

/** Starts a fixture server speaking `dialect` on 127.0.0.1, port 0 (a free port). */
export async function startFixtureServer(dialect: FixtureDialect): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const queue: FixtureStep[] = [];
  let defaultStep: FixtureStep = DEFAULT_STEP;
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const delays = new Set<NodeJS.Timeout>();
  const success = (content: string, model: string): unknown => (dialect.answer({ content, usage: successUsage(content), model }, model, false) as { json: unknown }).json;

  const answer = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest, given?: FixtureStep): void => {
    if (req.method !== "POST" || !recorded.path.endsWith(dialect.route)) {
      sendJson(res, 404, dialect.errorBody(404, `no route ${req.method} ${recorded.path}`));
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
        sendJson(res, 200, success(step.content, step.model ?? requestedModel));
        return;
      case "empty":
        sendJson(res, 200, success("", requestedModel));
        return;
      case "status":
        sendJson(res, step.status, step.body ?? dialect.errorBody(step.status, `fixture error ${step.status}`), step.headers);
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
        const bytes = Buffer.from(JSON.stringify(success(step.content, requestedModel)));
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
      case "reply": {
        const reply = typeof step.reply === "function" ? step.reply(recorded) : step.reply;
        send(res, dialect.answer(reply, requestedModel, recorded.body?.stream === true));
        return;
      }
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
    origin: `http://127.0.0.1:${port}`,
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
