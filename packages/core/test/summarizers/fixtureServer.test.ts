import { describe, expect, it } from "vitest";
import OpenAI from "openai";
import { startOpenAIFixtureServer } from "../../../../test/support/openaiFixtureServer.js";

describe("the OpenAI fixture server", () => {
  it("answers in the chat-completions shape and records the request", async () => {
    const server = await startOpenAIFixtureServer();
    try {
      server.script({ kind: "success", content: "hello", model: "served-model" });
      const client = new OpenAI({ baseURL: server.baseUrl, apiKey: "k", maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: "asked-model", messages: [{ role: "user", content: "hi" }] });
      expect(completion.object).toBe("chat.completion");
      expect(completion.model).toBe("served-model");
      expect(completion.choices[0]).toMatchObject({ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" });
      expect(completion.usage?.total_tokens).toBeGreaterThan(0);
      expect(server.requests[0]?.body.messages).toEqual([{ role: "user", content: "hi" }]);
      // the queue is empty again: the default step answers
      const second = await client.chat.completions.create({ model: "asked-model", messages: [{ role: "user", content: "again" }] });
      expect(second.choices[0]?.message.content).toBe("fixture summary");
      expect(second.model).toBe("asked-model");
    } finally {
      await server.close();
    }
  });

  it("ends a hanging request when it is closed", async () => {
    const server = await startOpenAIFixtureServer();
    server.setDefault({ kind: "hang" });
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: "k", maxRetries: 0 });
    const pending = client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    await expect(pending).rejects.toThrow(/connection/i);
  });
});
