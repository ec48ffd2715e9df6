/** fast-check arbitraries of LangChain messages: every class, content strings and blocks, tool calls, metadata. */
import fc from "fast-check";
import { AIMessage, ChatMessage as GenericMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

function maybe<T>(key: string, arb: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc.option(arb, { nil: undefined }).map((value) => (value === undefined ? {} : { [key]: value }));
}

/** LangChain messages; `faithful` keeps every JSON value JSON-faithful (for the trip through JSON text). */
export function baseMessages(faithful: boolean): fc.Arbitrary<BaseMessage[]> {
  const json = faithful ? fc.json({ maxDepth: 2 }).map((t) => JSON.parse(t) as unknown) : fc.jsonValue({ maxDepth: 2 });
  const record = fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 2, noNullPrototype: true });
  const text = fc.string({ maxLength: 20 });
  const b64 = fc.base64String({ maxLength: 12 });
  const url = fc.webUrl();
  const block = fc.oneof(
    fc.tuple(text, maybe("id", fc.uuid())).map(([t, id]) => ({ type: "text", text: t, ...id })),
    url.map((u) => ({ type: "image_url", image_url: u })),
    fc.tuple(url, fc.constantFrom("auto", "low")).map(([u, detail]) => ({ type: "image_url", image_url: { url: u, detail } })),
    fc.tuple(b64, maybe("mimeType", fc.constantFrom("image/png", "image/jpeg"))).map(([data, m]) => ({ type: "image", data, ...m })),
    url.map((u) => ({ type: "image", url: u })),
    fc.tuple(b64, maybe("filename", fc.constantFrom("a.pdf"))).map(([data, f]) => ({ type: "file", data, mimeType: "application/pdf", ...f })),
    fc.tuple(b64).map(([data]) => ({ type: "audio", data, mimeType: "audio/wav" })),
    fc.tuple(fc.constantFrom("image", "file"), fc.stringMatching(/^file-[a-z0-9]{1,6}$/)).map(([type, fileId]) => ({ type, fileId })),
    fc.stringMatching(/^file-[a-z0-9]{1,6}$/).map((id) => ({ type: "image", source_type: "id", id })),
    text.map((t) => ({ type: "reasoning", reasoning: t })),
    fc.tuple(text, b64).map(([t, signature]) => ({ type: "thinking", thinking: t, signature })),
    fc.tuple(fc.uuid(), record).map(([id, input]) => ({ type: "tool_use", id, name: "lcm_grep", input })),
  );
  const content = fc.oneof(text, fc.array(block, { maxLength: 4 }));
  const common = fc.tuple(maybe("id", fc.uuid()), maybe("name", fc.constantFrom("alice", "bot")), maybe("additional_kwargs", record), maybe("response_metadata", record)).map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);
  const callId = fc.stringMatching(/^call_[a-z0-9]{1,5}$/);
  const toolCall = fc.tuple(callId, fc.constantFrom("readFile", "lcm_grep"), record).map(([id, name, args]) => ({ id, name, args, type: "tool_call" as const }));
  const usage = fc.tuple(fc.nat(9999), fc.nat(999)).map(([i, o]) => ({ input_tokens: i, output_tokens: o, total_tokens: i + o, input_token_details: { cache_read: Math.floor(i / 2) } }));

  const human = fc.tuple(content, common).map(([c, f]) => new HumanMessage({ ...f, content: c } as never));
  const system = fc.tuple(content, common).map(([c, f]) => new SystemMessage({ ...f, content: c } as never));
  const ai = fc
    .tuple(content, common, fc.array(toolCall, { maxLength: 3 }), maybe("usage_metadata", usage), maybe("reasoning_content", text))
    .map(([c, f, calls, u, r]) => new AIMessage({ ...f, ...(r.reasoning_content !== undefined ? { additional_kwargs: { ...(f.additional_kwargs as object), ...r } } : {}), content: c, tool_calls: calls, ...u } as never));
  const tool = fc
    .tuple(content, common, callId, maybe("status", fc.constantFrom("success", "error")), maybe("artifact", json))
    .map(([c, f, id, s, a]) => new ToolMessage({ ...f, content: c, tool_call_id: id, ...s, ...a } as never));
  const generic = fc.tuple(text, common, fc.constantFrom("user", "assistant", "developer")).map(([c, f, role]) => new GenericMessage({ ...f, content: c, role } as never));
  return fc.array(fc.oneof(human, system, ai, tool, generic), { maxLength: 8 });
}
