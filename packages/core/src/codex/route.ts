/**
 * The Codex and Responses API routes as a route extension: it taps the host's route hooks with the
 * route facts (windows, `-900k` aliases), the gpt-5.5 threshold autoraise and its one-time notice, and
 * the app-server's ownership of a thread's compaction, all read from the `codex:` section.
 */
import type { RouteConfig, RouteExtension, RouteHooks } from "../host/hooks.js";
import { appServerSessionCompaction, isAppServerSession } from "./appServer.js";
import { raiseThresholdPlan } from "./autoraise.js";
import { parseAutoraiseNoticeState, takeAutoraiseNotice } from "./autoraiseNotice.js";
import { baseModelName, routeContextWindow } from "./models.js";
import { codexConfigOf } from "../config/codexSection.js";

/** The route's name, as its taps are named. */
export const CODEX_ROUTE = "codex";

/** Taps `hooks` with the Codex route, its settings read from `config` (the `codex:` section, else the old `compression.codex_*` keys). */
export function installCodexRoute(hooks: RouteHooks, config: RouteConfig): void {
  const settings = codexConfigOf(config);
  hooks.contextWindow.tap(CODEX_ROUTE, (model, provider, where) => routeContextWindow(model, provider, where));
  hooks.wireModel.tap(CODEX_ROUTE, (model) => baseModelName(model));
  hooks.thresholdPlan.tap(CODEX_ROUTE, (planned, model, thresholds) => {
    const raised = raiseThresholdPlan(planned.plan, model, thresholds, settings);
    return raised.autoraise.raised ? { plan: raised.plan, notice: raised.notice ?? planned.notice } : planned;
  });
  hooks.sessionCompaction.tap(CODEX_ROUTE, ({ model, serverThread }) =>
    isAppServerSession(model) ? appServerSessionCompaction(settings.app_server_auto, serverThread) : undefined,
  );
  hooks.notices.tap(CODEX_ROUTE, (notices, { source, planNotice }) => {
    // only the autoraise's own notice (its marker state), shown once per profile
    const mine = planNotice !== undefined && parseAutoraiseNoticeState(planNotice.state) !== undefined ? planNotice : undefined;
    const text = takeAutoraiseNotice(mine, { engineSource: source });
    return text === undefined ? notices : [...notices, text];
  });
}

/** The Codex route as a built-in route extension. */
export const codexRoute: RouteExtension = { name: CODEX_ROUTE, install: installCodexRoute };
