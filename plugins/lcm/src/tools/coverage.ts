/**
 * Which summary in the current context holds a compacted record (`coveredBy`). Context items partition
 * the session's seq range, so only the summaries in context are read: a record no context summary
 * covers is raw in context itself.
 */
import type { SummaryRecord } from "../store/LcmStore.js";
import type { LcmStoreAsync } from "../store/LcmStoreAsync.js";

/** The current context of a session, indexed for coverage questions. */
export class ContextCoverage {
  private constructor(private readonly summaries: readonly SummaryRecord[]) {}

  /** Reads the summaries in the context of `session` (its own: summaries `/new` carried over cover another session's messages). */
  static async load(store: LcmStoreAsync, session: string): Promise<ContextCoverage> {
    const ids = await store.contextSummaryIds(session);
    const summaries = await Promise.all(ids.map((id) => store.getSummary(id)));
    return new ContextCoverage(summaries.filter((s): s is SummaryRecord => s !== undefined && s.session === session));
  }

  private holder(seqStart: number, seqEnd: number): SummaryRecord | undefined {
    return this.summaries.find((s) => s.seqStart <= seqStart && seqEnd <= s.seqEnd);
  }

  /** True when the record `id` covering `[seqStart, seqEnd]` is itself a context item. */
  isInContext(id: string, seqStart: number, seqEnd: number = seqStart): boolean {
    const holder = this.holder(seqStart, seqEnd);
    return holder === undefined || holder.id === id;
  }

  /** The context summary whose seq range holds `[seqStart, seqEnd]`; null when the record `id` is itself in context. */
  coveredBy(id: string, seqStart: number, seqEnd: number = seqStart): string | null {
    const holder = this.holder(seqStart, seqEnd);
    return holder && holder.id !== id ? holder.id : null;
  }
}
