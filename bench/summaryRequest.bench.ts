/**
 * What a summary costs when it reads the cache (`compression.summary_request: suffix`) against today's
 * separate request, on every real transcript of ../shared/corpus (else the bundled fixtures): each is
 * replayed with claude-sonnet-4 via Anthropic (5m TTL, request times from the transcript, else 20 s apart)
 * by the built-in compressor, its summaries written offline and priced as an LLM summarizer of the
 * conversation's model would send them — separately (the range serialized, uncached) or as the
 * conversation's suffix (the agent's request, mostly a cache read, then the instruction) — twice: with the
 * transcripts' own system prompts (most have none) and with a coding agent's of about 16,000 tokens,
 * tool definitions included (agentSystemPrompt.ts). Also what each request shows the summary model
 * (the eval's prompt recall), and why a suffix summary went out separately. Figures and ratios only.
 */
import { ContextCompressor, ExtractiveSummarizer, defaultTokenCounter, type ChatMessage } from "@context-engine/core";
import { addSurvival, emptySurvival, evaluateFidelity, lookupModelPrice, MeteredSummarizer, requestCostUsd, survivalShare, type SurvivalByKind } from "@context-engine/core/lab";
import { agentSystemPrompt, withAgentSystemPrompt } from "./agentSystemPrompt.js";
import { corpusSessions } from "./corpusSessions.js";
import { SYNTHETIC } from "./fidelity.bench.js";

const MODEL = "claude-sonnet-4";
const PROVIDER = "anthropic";
const WINDOWS = [64_000, 200_000];
type Mode = "separate" | "suffix";

/** One mode's sums over the corpus at one window. */
interface Sums {
  compactions: number;
  /** Summaries written, and the model calls an LLM summarizer makes for them (several for a range read in chunks). */
  summaries: number;
  calls: number;
  suffixCalls: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  summaryCostUsd: number;
  sessionCostUsd: number;
  recall: SurvivalByKind;
  /** Why summaries that offered their conversation went out separately, with counts. */
  separately: Map<string, number>;
}

function emptySums(): Sums {
  return { compactions: 0, summaries: 0, calls: 0, suffixCalls: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, summaryCostUsd: 0, sessionCostUsd: 0, recall: emptySurvival(), separately: new Map() };
}

/** A reason without its numbers, so that like reasons are counted together. */
function reasonKind(reason: string): string {
  return reason.replace(/\([\d,]+ tokens\)/, "(N tokens)").replace(/the [\d,]+-token window/, "the window");
}

/** The built-in compressor, counting why a summary that offered its conversation went out separately. */
class CountingCompressor extends ContextCompressor {
  constructor(options: ConstructorParameters<typeof ContextCompressor>[0], private readonly separately: Map<string, number>) {
    super(options);
  }

  override async compress(...args: Parameters<ContextCompressor["compress"]>): Promise<ChatMessage[]> {
    const before = this.lastCompression;
    const out = await super.compress(...args);
    const reason = this.lastCompression !== before ? this.lastCompression?.summaryRequest?.reason : undefined;
    // the offline summarizer itself calls no model: the meter decides for the LLM summarizer it stands for
    if (reason !== undefined && !/calls no model$/.test(reason)) this.separately.set(reasonKind(reason), (this.separately.get(reasonKind(reason)) ?? 0) + 1);
    return out;
  }
}

/** One replay of `messages` at `window` with summaries asked as `mode` says, added to `sums`. */
async function measure(messages: ChatMessage[], window: number, mode: Mode, sums: Sums): Promise<void> {
  const meter = new MeteredSummarizer(new ExtractiveSummarizer(), defaultTokenCounter(), { keepPrompts: true });
  const engine = new CountingCompressor({ model: { model: MODEL, provider: PROVIDER, contextLength: window }, compression: { summary_request: mode }, summarizer: meter }, sums.separately);
  const report = await evaluateFidelity(messages, { engine, model: MODEL, provider: PROVIDER, prompts: meter, summaries: { calls: meter.calls, model: MODEL } });
  const t = report.replay.totals;
  const s = t.summaries;
  sums.compactions += t.compactions;
  sums.summaries += meter.prompts.length;
  sums.sessionCostUsd += t.costWithSummariesUsd;
  if (report.promptRecall) sums.recall = addSurvival(sums.recall, report.promptRecall);
  if (s === undefined) return;
  sums.calls += s.calls;
  sums.suffixCalls += s.suffixCalls ?? 0;
  sums.inputTokens += s.inputTokens;
  sums.cacheReadTokens += s.cacheReadTokens ?? 0;
  sums.cacheWriteTokens += s.cacheWriteTokens ?? 0;
  sums.outputTokens += s.outputTokens;
  sums.summaryCostUsd += s.costUsd ?? 0;
}

const usd = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const tokens = (x: number) => Math.round(x).toLocaleString("en-US");

/** `kept/total` of the kinds the summary model must be shown. */
function recallCell(recall: SurvivalByKind): string {
  return (["path", "error", "command", "ask"] as const)
    .map((kind) => {
      const share = survivalShare(recall[kind]);
      return `${kind} ${recall[kind].kept}/${recall[kind].total}${share === undefined ? "" : ` (${pct(share)})`}`;
    })
    .join(", ");
}

/** The input and the output of `s`'s summaries at the model's price (the input as served: cache reads and writes at theirs). */
function split(s: Sums): { input: number; output: number } {
  const price = lookupModelPrice(MODEL)!;
  const output = requestCostUsd({ uncachedInputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { "5m": 0, "1h": 0 }, outputTokens: s.outputTokens }, price);
  return { input: s.summaryCostUsd - output, output };
}

function printWindow(label: string, separate: Sums, suffix: Sums): void {
  console.log(`  ${label}: ${separate.summaries} summaries in ${separate.compactions} compactions`);
  const line = (name: string, s: Sums, how: string) => {
    const { input, output } = split(s);
    const each = s.summaries === 0 ? 0 : s.summaryCostUsd / s.summaries;
    console.log(`    ${name} ${usd(s.summaryCostUsd)} (${usd(each)} a summary; input ${usd(input)}, output ${usd(output)}), ${s.calls} calls, ${tokens(s.inputTokens)} input tokens${how}`);
  };
  line("separate:", separate, ", all at the input price");
  const share = (n: number) => pct(suffix.inputTokens === 0 ? 0 : n / suffix.inputTokens);
  line("suffix:  ", suffix, `, ${share(suffix.cacheReadTokens)} read from the cache, ${share(suffix.cacheWriteTokens)} written; ${suffix.suffixCalls} calls as the suffix`);
  if (separate.summaryCostUsd > 0) {
    const input = split(suffix).input / split(separate).input;
    console.log(`    suffix / separate: ${(suffix.summaryCostUsd / separate.summaryCostUsd).toFixed(3)} of the summaries' cost (${input.toFixed(3)} of their input's); the whole sessions ${usd(separate.sessionCostUsd)} → ${usd(suffix.sessionCostUsd)} (${pct(suffix.sessionCostUsd / separate.sessionCostUsd - 1)})`);
  }
  for (const [reason, count] of [...suffix.separately].sort((a, b) => b[1] - a[1])) console.log(`    sent separately ${count}×: ${reason}`);
  console.log(`    the summary model shown, separate: ${recallCell(separate.recall)}`);
  console.log(`    the summary model shown, suffix:   ${recallCell(suffix.recall)}`);
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const sessions = (await corpusSessions()).filter((s) => !SYNTHETIC.test(s.name));
  if (sessions.length === 0) {
    console.log("corpus unavailable: ../shared/corpus is absent");
    return;
  }
  const prompt = agentSystemPrompt();
  const promptTokens = defaultTokenCounter().count(prompt);
  console.log(`${MODEL} via ${PROVIDER}, 5m TTL, offline summaries priced as an LLM summarizer of ${MODEL} sends them; ${sessions.length} real transcripts of ../shared/corpus`);
  for (const window of WINDOWS) {
    console.log("");
    console.log(`── ${window.toLocaleString("en-US")}-token window`);
    for (const [label, withPrompt] of [["the transcripts' own system prompts", false], [`a ${tokens(promptTokens)}-token agent system prompt (tool definitions included)`, true]] as const) {
      const sums = { separate: emptySums(), suffix: emptySums() };
      for (const session of sessions) {
        const messages = withPrompt ? withAgentSystemPrompt(session.messages, prompt) : session.messages;
        for (const mode of ["separate", "suffix"] as const) await measure(messages, window, mode, sums[mode]);
      }
      printWindow(label, sums.separate, sums.suffix);
    }
  }
}
