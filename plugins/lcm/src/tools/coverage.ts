/** Which summary in the current context holds a compacted record (`coveredBy`), from the context items. */
import type { ItemRef, LcmStore, SummaryRecord } from "../store/LcmStore.ts";

/** The current context of a session, indexed for coverage questions. */
export class ContextCoverage {
  private readonly inContext = new Set<string>();
  private readonly summaries: SummaryRecord[] = [];

  constructor(store: LcmStore, session: string) {
    const items: ItemRef[] = store.contextItems(session);
    for (const item of items) {
      this.inContext.add(item.id);
      if (item.type === "summary") {
        const summary = store.getSummary(item.id);
        if (summary) this.summaries.push(summary);
      }
    }
  }

  /** True when `id` is itself a context item. */
  isInContext(id: string): boolean {
    return this.inContext.has(id);
  }

  /** The context summary whose seq range holds `[seqStart, seqEnd]`, unless `id` is itself in context. */
  coveredBy(id: string, seqStart: number, seqEnd: number = seqStart): string | null {
    if (this.inContext.has(id)) return null;
    const holder = this.summaries.find((s) => s.seqStart <= seqStart && seqEnd <= s.seqEnd);
    return holder ? holder.id : null;
  }
}
