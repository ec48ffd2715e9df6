/**
 * The many-workers workload with the built-in compressor (docs/BEHAVIOUR.md, "Many workers"): worker
 * processes on one store (a PostgreSQL database or a SQLite file) take turns of shared sessions — each turn
 * a tagged ask, a read and its 2 KB result, an answer — and run `maybeCompress` with the turn's token
 * count, then report the usage of the request sent (`updateFromResponse`, as a host does), background preparation on, summaries from a loopback summarizer that lists the tags of the turns
 * it was given ({@link taggedSummaryReply}), and `compact_context` requests on random turns (the requesting
 * worker leaves the next boundary to the others). Every call is logged, so the test and `bench workers` can
 * check from the outside what was applied, honoured and how long the trigger took.
 */
import { ContextCompressor, OpenAICompatibleSummarizer, RoughTokenCounter, SUMMARY_SECTIONS, type ChatMessage, type SessionStoreAsync } from "../../packages/core/src/index.js";
import { CompactionSessionAsync } from "../../packages/core/src/session/index.js";
import { openSqliteStore } from "../../packages/core/src/store/sqliteStore.js";
import type { FixtureReply, RecordedRequest } from "./openaiFixtureServer.js";
import { prng } from "./prng.js";

/** What one worker runs. */
export interface PreparedWorkloadOptions {
  store: { kind: "postgres"; url: string } | { kind: "sqlite"; path: string };
  summarizerUrl: string;
  worker: number;
  workers: number;
  sessions: number;
  rounds: number;
  /** Chance of a `compact_context` request on a turn (of the sessions this worker asks for). */
  requestChance: number;
  /** The model's time per turn, waited before each round. */
  turnMs: number;
}

/** One `maybeCompress` call as a worker logged it. */
export interface LoggedCall {
  session: string;
  worker: number;
  /** Epoch ms when the call started, and how long it took. */
  at: number;
  ms: number;
  outcome: string;
  reason?: string | undefined;
  preparation?: { outcome: string; fromStore?: boolean | undefined } | undefined;
  /** The focus of the agent's request the call compacted for. */
  focus?: string | undefined;
  /** The id of the summary it wrote (`summary #n`), when it wrote one. */
  summaryId?: string | undefined;
}

/** A `compact_context` request as the worker made it. */
export interface LoggedRequest {
  session: string;
  worker: number;
  at: number;
  focus: string;
  accepted: boolean;
}

/** What one worker did. */
export interface PreparedWorkerReport {
  worker: number;
  calls: LoggedCall[];
  requests: LoggedRequest[];
  appended: number;
  failures: string[];
}

const TAG = /\bw\d+ s\d+ r\d+\b/g;

/** Epoch milliseconds with a fraction: the processes' logs are ordered by it. */
const epochNow = () => performance.timeOrigin + performance.now();

/** The tag of worker `w`'s turn in round `r` of session `s`. */
export const preparedTag = (w: number, s: number, r: number) => `w${w} s${s} r${r}`;
/** The id of shared session `s`. */
export const preparedSessionId = (s: number) => `prepared-${s}`;

/** The tags in `text`, once each. */
export function tagsIn(text: string): string[] {
  return [...new Set(text.match(TAG) ?? [])];
}

/** The text of `prompt` between `start` and the first of `ends` after it (empty when `start` is absent). */
function section(prompt: string, start: string, ends: readonly string[]): string {
  const from = prompt.indexOf(start);
  if (from === -1) return "";
  const rest = prompt.slice(from + start.length);
  const to = Math.min(...ends.map((end) => rest.indexOf(end)).filter((i) => i !== -1), rest.length);
  return rest.slice(0, to);
}

/**
 * The loopback summarizer's answer: a template summary `summary #n` listing every tag of the turns it was
 * given to summarize and of the previous summary it updates (not of the goal or focus lines), so the
 * active list tells which turns a summary covers.
 */
export function taggedSummaryReply(): (request: RecordedRequest) => FixtureReply {
  let n = 0;
  return (request) => {
    const prompt = String(request.body?.messages?.at(-1)?.content ?? "");
    const turns = section(prompt, "TURNS TO SUMMARIZE:\n", ["Now write"]) + section(prompt, "NEW TURNS:\n", ["Now write"]);
    const previous = section(prompt, "PREVIOUS SUMMARY:\n", ["NEW TURNS:"]);
    const tags = [...new Set([...tagsIn(previous), ...tagsIn(turns)])];
    const body = SUMMARY_SECTIONS.map((heading, i) => `${heading}\n- ${i === 0 ? `summary #${++n} covers: ${tags.join(", ")}` : "item"}`).join("\n");
    return { content: body };
  };
}

/** One turn of session `s` by worker `w` in round `r`: the tag only in the ask, so a boundary inside a turn repeats no tag. */
function turn(w: number, s: number, r: number): ChatMessage[] {
  const id = `call_w${w}_s${s}_r${r}`;
  return [
    { role: "user", content: `${preparedTag(w, s, r)}: check src/file_${r}.ts` },
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/file_${r}.ts` }) } }] },
    { role: "tool", tool_call_id: id, content: `contents of src/file_${r}.ts\n${"x".repeat(2_000)}` },
    { role: "assistant", content: "Checked it." },
  ];
}

/** The store the options name, opened for this worker. */
async function openStore(options: PreparedWorkloadOptions): Promise<SessionStoreAsync & { close(): unknown }> {
  if (options.store.kind === "sqlite") return openSqliteStore(options.store.path);
  const { openPostgresStore } = await import("../../packages/postgres/src/index.js");
  return openPostgresStore({ connectionString: options.store.url, maxConnections: 8 });
}

/** Runs one worker's share of the workload: every session, round after round, all sessions at once. */
export async function runPreparedWorkload(options: PreparedWorkloadOptions): Promise<PreparedWorkerReport> {
  const store = await openStore(options);
  const counter = new RoughTokenCounter();
  const random = prng(options.worker * 7919 + 1);
  const report: PreparedWorkerReport = { worker: options.worker, calls: [], requests: [], appended: 0, failures: [] };
  const lastRequest = new Map<number, number>();
  try {
    // one engine per worker, as a gateway process holds one host for every conversation it serves
    const engine = new ContextCompressor({
      compression: { protect_last_n: 4, threshold_tokens: 12_000, prepare_at: 0.6, compact_tool: { enabled: true, min_turns_between: 1 } },
      summarizer: new OpenAICompatibleSummarizer({ baseUrl: options.summarizerUrl, apiKey: "sk-fixture", model: "summary-model" }),
      tokenCounter: counter,
      store,
      warn: (message) => report.failures.push(`warning: ${message}`),
    });
    const sessions = await Promise.all(Array.from({ length: options.sessions }, (_, s) => CompactionSessionAsync.open({ engine, store, sessionId: preparedSessionId(s), platform: "gateway" })));
    // each conversation at its own pace (the model's time per turn varies), not all in step
    await Promise.all(
      sessions.map(async (session, s) => {
        const id = preparedSessionId(s);
        for (let r = 0; r < options.rounds; r++) {
          await new Promise((wait) => setTimeout(wait, options.turnMs * (0.5 + random())));
          try {
            await session.append(turn(options.worker, s, r));
            report.appended++;
            // the agent asks for a compaction; the next turn boundary goes to another worker
            const mine = s % options.workers === options.worker;
            // not on the last round: a request is honoured at a turn that follows it
            if (mine && r < options.rounds - 1 && r - (lastRequest.get(s) ?? -10) >= 3 && random() < options.requestChance) {
              const focus = `focus on ${preparedTag(options.worker, s, r)}`;
              const answer = JSON.parse(await session.handleToolCall("compact_context", { focus })) as { accepted?: boolean };
              report.requests.push({ session: id, worker: options.worker, at: epochNow(), focus, accepted: answer.accepted === true });
              lastRequest.set(s, r);
              continue;
            }
            const promptTokens = counter.countMessages(await session.messages());
            const at = epochNow();
            const started = performance.now();
            const result = await session.maybeCompress({ promptTokens });
            report.calls.push({
              session: id,
              worker: options.worker,
              at,
              ms: performance.now() - started,
              outcome: result.outcome,
              reason: result.reason,
              preparation: result.report?.preparation,
              focus: result.agentRequest?.focus,
              summaryId: /summary #\d+/.exec(result.compaction?.summary ?? "")?.[0],
            });
            // the model answers the request sent next and reports its usage, as a host feeds it back
            const sent = result.outcome === "compressed" ? counter.countMessages(await session.messages()) : promptTokens;
            session.engine.updateFromResponse({ prompt_tokens: sent, completion_tokens: 20 }, id);
          } catch (error) {
            report.failures.push(`${id} round ${r}: ${(error as Error).message}`);
          }
        }
      }),
    );
    // a worker shutting down lets the summaries it is preparing settle and be saved for the others
    await new Promise((wait) => setTimeout(wait, 1_500));
  } finally {
    await store.close();
  }
  return report;
}
