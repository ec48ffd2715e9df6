/**
 * The one-time Codex autoraise notice (docs/BEHAVIOUR.md, "Routes"): its text,
 * and the marker file `.codex_gpt55_autoraise_notice` under `$HERMES_HOME` that records it was shown,
 * so repeated agent/session initialisation does not show it again.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { codexModelSlug } from "./models.js";

/** The percents an autoraise moved the trigger between (shares of the window). */
export interface AutoraiseChange {
  /** The percent before the autoraise. */
  from: number;
  /** The percent after it. */
  to: number;
}

/** The notice to show once, and the marker state that records it was shown. */
export interface AutoraiseNotice {
  text: string;
  /** `"<model-slug>:<from%>:<to%>"`, the content of the marker file. */
  state: string;
}

/** The marker file's name under `$HERMES_HOME`. */
export const AUTORAISE_MARKER_FILE = ".codex_gpt55_autoraise_notice";

/** The commands the notice offers (our CLI's spelling of Hermes' `hermes config set …`). */
export const AUTORAISE_OFF_COMMAND = "context-engine config set codex.gpt55_autoraise false";
/** Keeps the 85 % trigger and hides the notice. */
export const AUTORAISE_HIDE_NOTICE_COMMAND = "context-engine config set codex.gpt55_autoraise_notice false";

/** The profile directory: `$HERMES_HOME`, else `~/.hermes`. */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HERMES_HOME?.trim();
  return fromEnv ? fromEnv : join(homedir(), ".hermes");
}

/** A share of the window as a whole percent (0.5 → 50). */
function wholePercent(share: number): number {
  return Math.round(share * 100);
}

/** The marker content for `model` and `result`: `"<model-slug>:<from%>:<to%>"`, e.g. `gpt-5.5:50:85` (a vendor prefix is dropped). */
export function autoraiseNoticeState(model: string, result: AutoraiseChange): string {
  return `${codexModelSlug(model)}:${wholePercent(result.from)}:${wholePercent(result.to)}`;
}

/** Parses marker content; undefined when it is not `"<slug>:<int>:<int>"` (a malformed file reads as unseen). */
export function parseAutoraiseNoticeState(text: string): { model: string; from: number; to: number } | undefined {
  const match = /^([^:\s]+):(\d{1,3}):(\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  return { model: match[1] as string, from: Number(match[2]), to: Number(match[3]) };
}

/** The notice: what was raised, for which model and route, and the two commands that turn it off. */
export function autoraiseNoticeText(model: string, result: AutoraiseChange, thresholdTokens: number): string {
  return [
    `Codex OAuth caps ${model.trim()} at a 272,000-token window, so compression now starts at ${wholePercent(result.to)} % ` +
      `(about ${thresholdTokens.toLocaleString("en-US")} tokens) instead of ${wholePercent(result.from)} %.`,
    `  ${AUTORAISE_OFF_COMMAND}          # back to the global value`,
    `  ${AUTORAISE_HIDE_NOTICE_COMMAND}   # keep ${wholePercent(result.to)} %, hide this notice`,
  ].join("\n");
}

/** Path of the marker file under `home` (default {@link hermesHome}). */
export function autoraiseMarkerPath(home: string = hermesHome()): string {
  return join(home, AUTORAISE_MARKER_FILE);
}

/**
 * True unless the marker file under `home` holds exactly `state`: a missing, unreadable or malformed
 * file, or one recording another model or percent, means the notice has not been seen.
 */
export function shouldShowAutoraiseNotice(state: string, home: string = hermesHome()): boolean {
  let content: string;
  try {
    content = readFileSync(autoraiseMarkerPath(home), "utf8");
  } catch {
    return true;
  }
  const seen = parseAutoraiseNoticeState(content);
  return seen === undefined || content.trim() !== state;
}

/** Records that the notice for `state` was shown (creates `home` when missing). */
export function markAutoraiseNoticeShown(state: string, home: string = hermesHome()): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(autoraiseMarkerPath(home), `${state}\n`, "utf8");
}

/** Where the active engine came from (see `ContextHost.engineSource`). */
export type AutoraiseEngineSource = "builtin" | "directory" | "plugin";

/**
 * The notice text to print now, at most once per profile and state: undefined for a plugin engine
 * (it has its own threshold policy), when there is no notice, or when the marker says it was seen;
 * otherwise the marker is written and the text returned.
 */
export function takeAutoraiseNotice(
  notice: AutoraiseNotice | undefined,
  options: { engineSource: AutoraiseEngineSource; home?: string },
): string | undefined {
  if (notice === undefined || options.engineSource !== "builtin") return undefined;
  const home = options.home ?? hermesHome();
  if (!shouldShowAutoraiseNotice(notice.state, home)) return undefined;
  markAutoraiseNoticeShown(notice.state, home);
  return notice.text;
}
