/**
 * The loopback fixture servers as a vitest lifecycle: kept apart from the servers themselves so that
 * scripts outside vitest (the examples) can start a server without importing vitest.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { DEFAULT_STEP, type FixtureServer, type FixtureStep } from "./loopbackFixtureServer.js";
import { startOpenAIFixtureServer } from "./openaiFixtureServer.js";
import { startAnthropicFixtureServer } from "./anthropicFixtureServer.js";

/**
 * A fixture server started by `start` for the calling test file: started before its tests, its requests
 * and default step (`defaultStep`, else the initial one) reset after each test, stopped after all. Read
 * `.current` inside tests.
 */
export function useFixtureServer(start: () => Promise<FixtureServer>, defaultStep: FixtureStep = DEFAULT_STEP): { readonly current: FixtureServer } {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await start();
    server.setDefault(defaultStep);
  });
  afterEach(() => {
    server!.requests.length = 0;
    server!.setDefault(defaultStep);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get current(): FixtureServer {
      if (!server) throw new Error("the fixture server is only running inside the tests of the file that asked for it");
      return server;
    },
  };
}

/** The OpenAI chat-completions fixture server for the calling test file (see {@link useFixtureServer}). */
export function useOpenAIFixtureServer(defaultStep: FixtureStep = DEFAULT_STEP): { readonly current: FixtureServer } {
  return useFixtureServer(startOpenAIFixtureServer, defaultStep);
}

/** The Anthropic Messages API fixture server for the calling test file (see {@link useFixtureServer}). */
export function useAnthropicFixtureServer(defaultStep: FixtureStep = DEFAULT_STEP): { readonly current: FixtureServer } {
  return useFixtureServer(startAnthropicFixtureServer, defaultStep);
}
