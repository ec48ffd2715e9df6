import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, AuthenticationError, InternalServerError, PermissionDeniedError, RateLimitError } from "openai";
import {
  EmptySummaryError,
  InvalidSummaryResponseError,
  classifySummaryFailure,
  cooldownSeconds,
} from "../../src/summarizers/failures.js";

const headers = new Headers();

describe("classifySummaryFailure", () => {
  it.each([
    ["a 401", new AuthenticationError(401, { message: "bad key" }, undefined, headers), "abort", "auth"],
    ["a 403", new PermissionDeniedError(403, { message: "forbidden" }, undefined, headers), "abort", "auth"],
    ["a 429", new RateLimitError(429, { message: "slow down" }, undefined, headers), "abort", "quota"],
    ["a 500", new InternalServerError(500, { message: "boom" }, undefined, headers), "fallback", "server"],
    ["an SDK timeout", new APIConnectionTimeoutError(), "fallback", "timeout"],
    ["a user abort", new APIUserAbortError(), "abort", "aborted"],
    ["a DOM AbortError", new DOMException("stopped", "AbortError"), "abort", "aborted"],
    ["an empty summary", new EmptySummaryError(), "fallback", "empty"],
    ["an invalid response", new InvalidSummaryResponseError(), "fallback", "invalid"],
    ["a JSON parse error", new SyntaxError("Unexpected token <"), "fallback", "malformed"],
    ["an unknown error", new Error("something odd"), "fallback", "other"],
  ])("classifies %s", (_what, error, action, kind) => {
    expect(classifySummaryFailure(error)).toMatchObject({ action, kind });
  });

  it("classifies the errors of the openai SDK's CommonJS copy as those of its ES module copy", () => {
    const cjs = createRequire(import.meta.url)("openai") as typeof import("openai");
    expect(cjs.AuthenticationError).not.toBe(AuthenticationError);
    expect(classifySummaryFailure(new cjs.AuthenticationError(401, { message: "bad key" }, undefined, headers))).toMatchObject({ action: "abort", kind: "auth" });
    expect(classifySummaryFailure(new cjs.APIConnectionTimeoutError())).toMatchObject({ action: "fallback", kind: "timeout" });
    expect(classifySummaryFailure(new cjs.RateLimitError(429, { message: "slow down" }, undefined, headers))).toMatchObject({ action: "abort", kind: "quota" });
  });

  it("treats an error that only shares an SDK class's name, outside the SDK, as an unknown error", () => {
    class AuthenticationError extends Error {}
    expect(classifySummaryFailure(new AuthenticationError("bad key"))).toMatchObject({ action: "fallback", kind: "other" });
  });

  it("treats a quota message on another status as a quota failure", () => {
    const error = new InternalServerError(503, { message: "insufficient_quota: top up your credits", type: "insufficient_quota" }, undefined, headers);
    expect(classifySummaryFailure(error)).toMatchObject({ action: "abort", kind: "quota" });
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "ECONNRESET"])("treats a connection error caused by %s as the network being down", (code) => {
    const cause = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });
    const failure = classifySummaryFailure(new APIConnectionError({ cause }));
    expect(failure).toMatchObject({ action: "abort", kind: "network" });
    expect(failure.reason).toContain(code);
  });

  it("gives a one-line reason", () => {
    const failure = classifySummaryFailure(new Error("line one\nline two"));
    expect(failure.reason).not.toContain("\n");
    expect(failure.reason).toContain("line one line two");
  });
});

describe("cooldownSeconds", () => {
  const timeout = classifySummaryFailure(new APIConnectionTimeoutError());
  const server = classifySummaryFailure(new InternalServerError(500, undefined, undefined, headers));

  it("escalates timeouts 60 → 300 → 900 seconds by consecutive count", () => {
    expect([1, 2, 3, 4, 10].map((n) => cooldownSeconds(timeout, n))).toEqual([60, 300, 900, 900, 900]);
  });

  it("waits 30 seconds after a body that is not JSON", () => {
    expect(cooldownSeconds(classifySummaryFailure(new SyntaxError("Unexpected token <")), 0)).toBe(30);
  });

  it("waits 60 seconds after any other failure", () => {
    expect(cooldownSeconds(server, 0)).toBe(60);
    expect(cooldownSeconds(server, 3)).toBe(60);
  });
});
