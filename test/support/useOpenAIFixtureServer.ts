/**
 * The loopback OpenAI fixture server as a vitest lifecycle: kept apart from openaiFixtureServer.ts so
 * that scripts outside vitest (the examples) can start a server without importing vitest.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { DEFAULT_STEP, startOpenAIFixtureServer, type FixtureServer, type FixtureStep } from "./openaiFixtureServer.js";

/**
 * A fixture server for the calling test file: started before its tests, its requests and default step
 * (`defaultStep`, else the initial one) reset after each test, stopped after all. Read `.current` inside tests.
 */
export function useOpenAIFixtureServer(defaultStep: FixtureStep = DEFAULT_STEP): { readonly current: FixtureServer } {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startOpenAIFixtureServer();
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
