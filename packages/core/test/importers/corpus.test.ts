/**
 * Every corpus transcript of a supported format imports to valid messages with the counts
 * SOURCES.md gives (skipped when ../shared/corpus is absent, as on a user's clone).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importOpenHandsRecords, importTranscriptFile } from "../../src/importers/index.js";
import { CORPUS_DIR, countRoles, countToolCalls, expectValidConversation, HAS_CORPUS } from "./helpers.js";

interface Expected {
  format: string;
  /** Tool calls kept (= tool results; calls without a result are left out). */
  calls: number;
  /** Messages after conversion. */
  messages: number;
  /** Substrings every warning must match one of (empty: no warnings). */
  warnings?: RegExp[];
}

const CASES: Record<string, Expected> = {
  // 496 records, 152 tool_use / 151 tool_result: the last line's call has no result
  "cctrace/.claude-sessions/phase0-investigation/raw_messages.jsonl": {
    format: "claude-code", calls: 151, messages: 269,
    warnings: [/raw_messages\.jsonl:535: tool call "toolu_01LYedDqGBy8HJv92hmfSZz1" \(Bash\) has no result/, /raw_messages\.jsonl:535: assistant message left empty/],
  },
  "claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl": { format: "claude-code", calls: 39, messages: 80 },
  "claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl": { format: "claude-code", calls: 13, messages: 30 },
  "claude-reliability/snapshot-tests/tests/stop-hook-reflection-first-stop/transcript.jsonl": { format: "claude-code", calls: 4, messages: 12 },
  "claude-code-log/test/test_data/representative_messages.jsonl": { format: "claude-code", calls: 2, messages: 11 },
  "claude-code-log/test/test_data/todowrite_examples.jsonl": { format: "claude-code", calls: 3, messages: 11 },
  "claude-code-log/test/test_data/edge_cases.jsonl": { format: "claude-code", calls: 1, messages: 10, warnings: [/edge_cases\.jsonl:\d+: /] },
  "claude-code-transcripts/tests/sample_session.json": { format: "claude-code", calls: 12, messages: 33 },
  "claude-code-transcripts/tests/sample_session.jsonl": { format: "claude-code", calls: 2, messages: 7 },
  // SWE-agent: history entries (replays reuse call ids; those are renamed)
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source/marshmallow-code__marshmallow-1867.traj": {
    format: "swe-agent", calls: 13, messages: 28, warnings: [/reuses an earlier id; renamed/],
  },
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling__install-1/marshmallow-code__marshmallow-1867.traj": {
    format: "swe-agent", calls: 11, messages: 24, warnings: [/reuses an earlier id; renamed/],
  },
  "swe-agent/trajectories/demonstrations/function_calling_simple.traj": { format: "swe-agent", calls: 5, messages: 12 },
  "swe-agent/tests/test_data/trajectories/gpt4__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/6e44b9__sweagenttestrepo-1c2844.traj": { format: "swe-agent", calls: 4, messages: 10 },
  "swe-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj": { format: "swe-agent", calls: 0, messages: 26, warnings: [/read as swe-agent \(detected from its content\), but it gave no tool calls/] },
  "swe-agent/trajectories/demonstrations/ctf/web/i_got_id_demo.traj": { format: "swe-agent", calls: 0, messages: 43, warnings: [/read as swe-agent \(detected from its content\), but it gave no tool calls/] },
  "swe-agent/trajectories/demonstrations/ctf/crypto/katy.traj": { format: "swe-agent", calls: 0, messages: 37, warnings: [/read as swe-agent \(detected from its content\), but it gave no tool calls/] },
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__xml_sys-env_window100__t-0.20__p-0.95__c-2.00__install-1/marshmallow-code__marshmallow-1867.traj": { format: "swe-agent", calls: 0, messages: 23, warnings: [/read as swe-agent \(detected from its content\), but it gave no tool calls/] },
  // OpenHands: the eval JSONL defaults to its longest record (103 events); `finish` has no observation
  "openhands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl": { format: "openhands", calls: 49, messages: 101, warnings: [/imported record 2 \(ponylang__ponyc-4588\) of 3, 103 events/] },
  "openhands/tests/runtime/trajs/basic_gui_mode.json": { format: "openhands", calls: 4, messages: 10 },
  "openhands/tests/runtime/trajs/basic.json": { format: "openhands", calls: 1, messages: 4, warnings: [/\(finish\) has no result/] },
  "openhands-sdk/tests/fixtures/llm_data/fncall-llm-message.json": { format: "openai", calls: 6, messages: 14 },
  "openhands-sdk/tests/fixtures/llm_data/nonfncall-llm-message.json": { format: "openai", calls: 4, messages: 10 },
  "openhands-sdk/tests/fixtures/llm_data/llm-logs/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json": {
    format: "openai", calls: 5, messages: 13, warnings: [/response\.choices\[0\]\.message: tool call .* \(finish\) has no result/],
  },
};

describe.skipIf(!HAS_CORPUS)("corpus transcripts", () => {
  it.each(Object.entries(CASES))("imports %s to valid messages", async (path, expected) => {
    const result = await importTranscriptFile(join(CORPUS_DIR, path), { fileName: path });
    expect(result.format).toBe(expected.format);
    expectValidConversation(result.messages);
    expect(result.messages).toHaveLength(expected.messages);
    expect(countToolCalls(result.messages)).toBe(expected.calls);
    expect(countRoles(result.messages).tool ?? 0).toBe(expected.calls);
    const patterns = expected.warnings ?? [];
    for (const warning of result.warnings) expect(patterns.some((p) => p.test(warning)), warning).toBe(true);
    for (const pattern of patterns) expect(result.warnings.some((w) => pattern.test(w)), String(pattern)).toBe(true);
  });

  it("imports all three records of the OpenHands eval output (49/70/103 events)", () => {
    const path = "openhands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl";
    const results = importOpenHandsRecords(readFileSync(join(CORPUS_DIR, path), "utf8"), { fileName: path });
    expect(results.map((r) => r.instanceId)).toEqual(["ponylang__ponyc-4595", "ponylang__ponyc-4593", "ponylang__ponyc-4588"]);
    expect(results.map((r) => r.messages.length)).toEqual([47, 68, 101]);
    for (const r of results) expectValidConversation(r.messages);
    // SOURCES.md's "208" counts events with tool metadata: 105 call actions + 103 observations;
    // the two `finish` calls have no observation and are left out
    expect(results.reduce((n, r) => n + countToolCalls(r.messages), 0)).toBe(103);
    expect(results.flatMap((r) => r.warnings).filter((w) => /\(finish\) has no result/.test(w))).toHaveLength(2);
  });
});
