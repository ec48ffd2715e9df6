import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AUTORAISE_MARKER_FILE,
  autoraiseNoticeState,
  hermesHome,
  markAutoraiseNoticeShown,
  parseAutoraiseNoticeState,
  shouldShowAutoraiseNotice,
  takeAutoraiseNotice,
} from "../../src/codex/autoraiseNotice.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "hermes-home-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const marker = () => join(home, AUTORAISE_MARKER_FILE);

describe("autoraise notice marker", () => {
  it("writes the state as <model-slug>:<from%>:<to%>", () => {
    expect(autoraiseNoticeState("GPT-5.5", { from: 0.5, to: 0.85 })).toBe("gpt-5.5:50:85");
    markAutoraiseNoticeShown("gpt-5.5:50:85", home);
    expect(readFileSync(marker(), "utf8").trim()).toBe("gpt-5.5:50:85");
  });

  it("shows the notice when no marker exists, and not once it records the current state", () => {
    expect(shouldShowAutoraiseNotice("gpt-5.5:50:85", home)).toBe(true);
    markAutoraiseNoticeShown("gpt-5.5:50:85", home);
    expect(shouldShowAutoraiseNotice("gpt-5.5:50:85", home)).toBe(false);
  });

  it("treats a malformed marker as unseen", () => {
    writeFileSync(marker(), "{not a marker}");
    expect(shouldShowAutoraiseNotice("gpt-5.5:50:85", home)).toBe(true);
    expect(parseAutoraiseNoticeState("gpt-5.5:fifty:85")).toBeUndefined();
    expect(parseAutoraiseNoticeState("gpt-5.5:50:85\n")).toEqual({ model: "gpt-5.5", from: 50, to: 85 });
  });

  it("shows the notice again when the raised value changes", () => {
    markAutoraiseNoticeShown("gpt-5.5:50:85", home);
    expect(shouldShowAutoraiseNotice("gpt-5.5:60:85", home)).toBe(true);
    expect(shouldShowAutoraiseNotice("gpt-5.4:50:85", home)).toBe(true);
  });

  it("creates a missing HERMES_HOME when recording", () => {
    const nested = join(home, "profiles", "work");
    markAutoraiseNoticeShown("gpt-5.5:50:85", nested);
    expect(shouldShowAutoraiseNotice("gpt-5.5:50:85", nested)).toBe(false);
  });

  it("finds the profile in $HERMES_HOME, else ~/.hermes", () => {
    expect(hermesHome({ HERMES_HOME: home })).toBe(home);
    expect(hermesHome({})).toMatch(/\.hermes$/);
  });
});

describe("takeAutoraiseNotice", () => {
  const notice = { text: "raised to 85 %", state: "gpt-5.5:50:85" };

  it("returns the text once per profile and state, then nothing", () => {
    expect(takeAutoraiseNotice(notice, { engineSource: "builtin", home })).toBe("raised to 85 %");
    expect(takeAutoraiseNotice(notice, { engineSource: "builtin", home })).toBeUndefined();
    expect(takeAutoraiseNotice({ ...notice, state: "gpt-5.5:40:85" }, { engineSource: "builtin", home })).toBe("raised to 85 %");
  });

  it("is suppressed for a plugin engine and leaves the marker alone", () => {
    expect(takeAutoraiseNotice(notice, { engineSource: "plugin", home })).toBeUndefined();
    expect(takeAutoraiseNotice(notice, { engineSource: "directory", home })).toBeUndefined();
    expect(shouldShowAutoraiseNotice(notice.state, home)).toBe(true);
  });

  it("returns nothing when there is no notice", () => {
    expect(takeAutoraiseNotice(undefined, { engineSource: "builtin", home })).toBeUndefined();
  });
});
