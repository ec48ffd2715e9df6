/**
 * The engine-state methods that let workers on one store hand work to each other (docs/BEHAVIOUR.md,
 * "Many workers"): besides load, save and clear, a take that exactly one caller wins and a claim that
 * expires. The SQLite and PostgreSQL session stores offer them; engines use them when their store does.
 */
import type { Awaitable } from "./types.js";

/** An engine-state store workers can share work through. */
export interface SharedStateStore {
  loadEngineState(engine: string, sessionId: string): Awaitable<unknown>;
  saveEngineState(engine: string, sessionId: string, state: unknown): Awaitable<void>;
  clearEngineState(engine: string, sessionId: string): Awaitable<void>;
  takeEngineState(engine: string, sessionId: string): Awaitable<unknown>;
  claimEngineState(engine: string, sessionId: string, state: unknown, staleBefore: number): Awaitable<boolean>;
}

/** `store` when it can take and claim engine state (what sharing needs), else undefined. */
export function sharedStateStoreOf(store: unknown): SharedStateStore | undefined {
  const s = store as Partial<SharedStateStore> | undefined;
  if (s === undefined || s === null) return undefined;
  const methods = [s.loadEngineState, s.saveEngineState, s.clearEngineState, s.takeEngineState, s.claimEngineState];
  return methods.every((m) => typeof m === "function") ? (s as SharedStateStore) : undefined;
}
