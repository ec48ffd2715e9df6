/** The offline, deterministic summarizer: fills the SPEC §4 template from the turns themselves. */
import type { SummaryRequest, Summarizer } from "./types.ts";

/** Offline summarizer; the embedded default and the fallback when an LLM summary fails. */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = "extractive";
  async summarize(request: SummaryRequest, _signal?: AbortSignal): Promise<string> {
    throw new Error("not implemented");
  }
}
