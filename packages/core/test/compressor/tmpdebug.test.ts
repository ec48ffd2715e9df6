import { it } from "vitest";
import { readFileSync } from "node:fs";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.ts";
import { parseMessages } from "../../src/messages/schema.ts";
import { validateConversation } from "../../src/messages/validate.ts";
import { roughCounter } from "./fixtures.ts";
it("debug", async () => {
  for (const f of ["marshmallow-1867.json", "python-to-rust-port.json"]) {
    const raw = JSON.parse(readFileSync("/work/main/test/fixtures/" + f, "utf8"));
    const m = parseMessages(Array.isArray(raw) ? raw : raw.messages);
    console.log(f, m.length, validateConversation(m).length, roughCounter.countMessages(m));
    const e = new ContextCompressor({ compression: { threshold_tokens: 20_000 }, tokenCounter: roughCounter });
    const out = await e.compress(m, { force: true });
    const { startedAt, ...r } = e.lastCompression!; console.log(JSON.stringify(r));
    console.log(String(out.find((x) => String(x.content).startsWith("[CONTEXT"))?.content).slice(0, 3000));
  }
});
