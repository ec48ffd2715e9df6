import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { prepareCompaction } from "../../src/compressor/prepareCompaction.js";
import { KEPT_EVIDENCE_CHARS, SUMMARY_EVIDENCE_CHARS } from "../../src/compressor/clearedEvidence.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../../src/messages/prunedOutput.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { SUMMARY_SECTIONS, type Summarizer, type SummaryRequest } from "../../src/summarizers/types.js";
import { serializeTurns } from "../../src/summarizers/serialize.js";
import { agentRounds, longOutput, roughCounter, system, toolTurn, user } from "./fixtures.js";

/** A compressor whose summarizer records what it was asked. */
function recordingEngine(): { engine: ContextCompressor; requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  const summarizer: Summarizer = { name: "recording", summarize: async (request) => (requests.push(request), SUMMARY_SECTIONS.map((h) => `${h}\n- kept`).join("\n")) };
  const engine = new ContextCompressor({ compression: { protect_last_n: 4 }, summarizer, tokenCounter: roughCounter, model: { model: "m", contextLength: 200_000 } });
  return { engine, requests };
}

const LINT_ERRORS = Array.from({ length: 12 }, (_, i) => `pkg/cmd/resume.go:${270 + i}:14: Error return value of \`fmt.Fprintln\` is not checked (errcheck)`);

/** A conversation whose early turn ran `output`, followed by enough rounds that it falls in the summarized middle. */
function conversationWith(command: string, output: string): ChatMessage[] {
  const [call, result] = toolTurn("bash", { command }, output);
  return [system("s"), user("lint the repo"), call, result, ...agentRounds(12, 3_000)];
}

/** The output the summarizer was shown for `command`, and the one compress() returned to the agent (if kept). */
async function views(command: string, output: string): Promise<{ shown: string; request: SummaryRequest }> {
  const { engine, requests } = recordingEngine();
  await engine.compress(conversationWith(command, output), { force: true });
  const request = requests[0]!;
  const callId = request.messages.find((m) => m.tool_calls?.some((c) => c.function.arguments.includes(command)))!.tool_calls![0]!.id;
  return { shown: String(request.messages.find((m) => m.tool_call_id === callId)!.content), request };
}

describe("the summary model reads the summarized range as it was, not as pruning cut it for the agent", () => {
  it("shows every error line of a long failing linter run, though the agent's cleared copy keeps about 300 characters", async () => {
    const output = `${longOutput("checking", 60)}\n${LINT_ERRORS.join("\n")}\nExit code 1`;
    const { shown, request } = await views("golangci-lint run ./...", output);
    expect(shown.startsWith(PRUNED_TOOL_PLACEHOLDER)).toBe(true);
    const evidence = shown.split("\n").slice(1).join("");
    expect(evidence.length).toBeGreaterThan(KEPT_EVIDENCE_CHARS);
    expect(evidence.length).toBeLessThanOrEqual(SUMMARY_EVIDENCE_CHARS);
    for (const line of LINT_ERRORS.slice(0, 10)) expect(serializeTurns(request.messages)).toContain(line);
  });

  it("shows a cleared output no longer than the summary's evidence bound whole", async () => {
    const output = `${longOutput("step", 8)}\nsomething the program printed that no error pattern knows\n`;
    expect(output.length).toBeLessThanOrEqual(SUMMARY_EVIDENCE_CHARS);
    const { shown } = await views("./deploy.sh --dry-run", output);
    expect(shown).toBe(output);
  });

  it("keeps a long successful read a one-line descriptor", async () => {
    const { shown } = await views("cat src/server.ts", longOutput("source", 80));
    expect(shown.startsWith(PRUNED_TOOL_PLACEHOLDER)).toBe(true);
    expect(shown.includes("\n")).toBe(false);
  });

  it("keeps the agent's bound in the pruned conversation: the longer evidence is the summary model's only", () => {
    const output = `${longOutput("checking", 60)}\n${LINT_ERRORS.join("\n")}\nExit code 1`;
    const messages = conversationWith("golangci-lint run ./...", output);
    const counts = messages.map((m) => (m.role === "tool" ? 2_000 : 10));
    const prepared = prepareCompaction(messages, counts, { protectFirstN: 2, protectLastN: 4, minTailUserMessages: 0, tailTokenBudget: 1_000, maxSummaryTokens: 2_000, thresholdTokens: 10_000 });
    const evidence = (message: ChatMessage | undefined) => String(message?.content).split("\n").slice(1).join("").length;
    expect(prepared.plan.headEnd).toBeLessThanOrEqual(3);
    expect(evidence(prepared.pruned[3])).toBeGreaterThan(0);
    expect(evidence(prepared.pruned[3])).toBeLessThanOrEqual(KEPT_EVIDENCE_CHARS);
    const shown = prepared.middleTurns.find((m) => m.tool_call_id === messages[3]!.tool_call_id);
    expect(evidence(shown)).toBeGreaterThan(KEPT_EVIDENCE_CHARS);
  });

  it("makes the summary model's form of a cleared output once: a later preparation with the same pruning memo shows the same message", () => {
    const output = `${longOutput("checking", 60)}\n${LINT_ERRORS.join("\n")}\nExit code 1`;
    const messages = conversationWith("golangci-lint run ./...", output);
    const counts = messages.map((m) => (m.role === "tool" ? 2_000 : 10));
    const settings = { protectFirstN: 2, protectLastN: 4, minTailUserMessages: 0, tailTokenBudget: 1_000, maxSummaryTokens: 2_000, thresholdTokens: 10_000 };
    const first = prepareCompaction(messages, counts, settings);
    const again = prepareCompaction(messages, counts, { ...settings, pruneMemo: first.pruneMemo });
    const shownIn = (prepared: typeof first) => prepared.middleTurns.find((m) => m.tool_call_id === messages[3]!.tool_call_id);
    expect(shownIn(again)).toBe(shownIn(first));
    expect(String(shownIn(again)?.content)).toContain(LINT_ERRORS[11]!.slice(0, 40));
  });
});
