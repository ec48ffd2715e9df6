/**
 * Token counting: js-tiktoken (the reference) against TiktokenCounter's exact o200k count on the
 * 1,003-message bench transcript and on the corpus when present (identical totals printed), a 1 MB
 * message without whitespace, the content cache's cost for a re-parsed transcript, and the rough
 * estimate's error on English and CJK samples. Figures only; nothing is asserted.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Tiktoken } from "js-tiktoken/lite";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { type ChatMessage, TiktokenCounter, estimateMessageTokensRough } from "@context-engine/core";
import { importTranscriptFile } from "@context-engine/core/lab";
import { countO200k } from "../packages/core/src/tokens/o200k.js";
import { messageTokenParts } from "../packages/core/src/tokens/rough.js";
import { benchTranscript } from "./compress.bench.js";

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), "../../shared/corpus/raw");

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

function compare(label: string, texts: string[], reference: Tiktoken): void {
  const mb = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 1e6;
  const slow = timed(() => texts.reduce((sum, t) => sum + reference.encode(t, [], []).length, 0));
  const fast = timed(() => texts.reduce((sum, t) => sum + countO200k(t), 0));
  const rate = (ms: number) => (mb / (ms / 1000)).toFixed(1);
  console.log(
    `${label}: ${mb.toFixed(2)} MB · js-tiktoken ${slow.value} tokens, ${rate(slow.ms)} MB/s · TiktokenCounter ${fast.value} tokens, ${rate(fast.ms)} MB/s · ` +
      `${slow.value === fast.value ? "identical" : "DIFFERENT"} · ${(slow.ms / fast.ms).toFixed(1)}× faster`,
  );
}

const SAMPLES: Record<string, string> = {
  English: "The context engine is a plugin host for the context engines of LLM agents. When a conversation grows too long it compresses history.",
  Chinese: "上下文引擎是大型语言模型代理的插件宿主。它在对话变得太长时压缩历史记录，同时保留最近的消息和重要的决定。",
  Japanese: "コンテキストエンジンは大規模言語モデルのエージェントのためのプラグインホストです。会話が長くなりすぎると履歴を圧縮します。",
  Korean: "컨텍스트 엔진은 대규모 언어 모델 에이전트를 위한 플러그인 호스트입니다. 대화가 너무 길어지면 기록을 압축합니다.",
};

/** Prints the figures. */
export async function run(): Promise<void> {
  const load = timed(() => countO200k("warm up"));
  console.log(`o200k tables loaded in ${load.ms.toFixed(0)} ms (first use)`);
  const reference = new Tiktoken(o200kRanks);
  const transcript = benchTranscript();
  compare(`bench transcript (${transcript.length} messages)`, transcript.flatMap((m) => messageTokenParts(m).texts), reference);

  if (existsSync(CORPUS)) {
    const texts: string[] = [];
    for (const path of filesUnder(CORPUS)) {
      const result = await importTranscriptFile(path).catch(() => undefined);
      for (const m of result?.messages ?? []) texts.push(...messageTokenParts(m).texts);
    }
    compare("corpus", texts, reference);
  } else {
    console.log("corpus: absent (../shared/corpus), skipped");
  }

  const base64 = randomBytes(750_000).toString("base64");
  for (const [label, text] of [["1 MB base64 message", base64], ["1 MB single-letter run", "a".repeat(1_000_000)]] as const) {
    const { value, ms } = timed(() => countO200k(text));
    console.log(`${label}: ${value} tokens in ${ms.toFixed(0)} ms (exact; js-tiktoken's quadratic merge: seconds to hours)`);
  }

  const json = JSON.stringify(transcript);
  const counter = new TiktokenCounter();
  const cold = timed(() => counter.countMessages(JSON.parse(json) as ChatMessage[]));
  const reparsed = JSON.parse(json) as ChatMessage[];
  const warm = timed(() => counter.countMessages(reparsed));
  console.log(`re-parsed transcript: first count ${cold.ms.toFixed(1)} ms, fresh copy through the content cache ${warm.ms.toFixed(1)} ms (${(cold.ms / warm.ms).toFixed(0)}× less)`);

  for (const [script, text] of Object.entries(SAMPLES)) {
    const message: ChatMessage = { role: "user", content: text };
    const exact = counter.countMessages([message]);
    const rough = estimateMessageTokensRough(message);
    console.log(`rough vs exact, ${script}: ${rough} vs ${exact} (${(((rough - exact) / exact) * 100).toFixed(0)} %)`);
  }
}
