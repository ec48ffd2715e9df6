/** Assertions shared by the tests of the CLI's HTML pages. */
import { expect } from "vitest";

/** The page is one HTML document that fetches nothing: no external scripts, styles, fonts, images or URLs. */
export function expectSelfContainedPage(page: string): void {
  expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
  expect(page).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
  expect(page).not.toMatch(/@import|url\(/);
  expect(page.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "")).not.toMatch(/https?:\/\//);
}
