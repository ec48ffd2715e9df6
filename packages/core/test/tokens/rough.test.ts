import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import {
  REPLAY_FIELDS,
  replayFieldValues,
  estimateMessagesTokensRough,
  estimateMessageTokensRough,
  estimateTokensRough,
  IMAGE_TOKENS,
  MESSAGE_ENVELOPE_TOKENS,
  messageTokenParts,
  roughQuarters,
} from "../../src/tokens/rough.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

describe("estimateTokensRough", () => {
  it("is ceil(chars / 4)", () => {
    expect(estimateTokensRough("")).toBe(0);
    expect(estimateTokensRough("a")).toBe(1);
    expect(estimateTokensRough("abcd")).toBe(1);
    expect(estimateTokensRough("abcde")).toBe(2);
    expect(estimateTokensRough("x".repeat(400))).toBe(100);
    expect(estimateTokensRough("x".repeat(401))).toBe(101);
  });
  it("agrees with (chars + 3) // 4 for every length up to 100", () => {
    for (let n = 0; n <= 100; n += 1) expect(estimateTokensRough("y".repeat(n))).toBe(Math.floor((n + 3) / 4));
  });
});

describe("estimateMessagesTokensRough", () => {
  it("counts string content plus the per-message envelope", () => {
    expect(estimateMessagesTokensRough([{ role: "user", content: "x".repeat(40) }])).toBe(10 + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts null content as the envelope alone", () => {
    expect(estimateMessageTokensRough({ role: "assistant", content: null })).toBe(MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts the text parts of a content list and each image as IMAGE_TOKENS", () => {
    const message: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: "x".repeat(6) },
        { type: "image_url", image_url: { url: "data:image/png;base64," + "A".repeat(10_000) } },
        { type: "input_image", image_url: "https://example.com/a.png" },
        { type: "image", source: { data: "..." } },
        { type: "text", text: "y".repeat(6) },
      ],
    };
    expect(IMAGE_TOKENS).toBe(1_500);
    expect(estimateMessageTokensRough(message)).toBe(3 + 3 * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts a content part of an unknown kind by its serialized form", () => {
    const part = { type: "input_audio", input_audio: { data: "abcd", format: "wav" } };
    const message: ChatMessage = { role: "user", content: [part] };
    expect(estimateMessageTokensRough(message)).toBe(Math.ceil(JSON.stringify(part).length / 4) + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts each tool call's whole envelope (id, type, name, framing) and its arguments", () => {
    const message: ChatMessage = {
      role: "assistant",
      content: "ok",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "terminal", arguments: '{"cmd":"ls -la"}' } },
        { id: "c2", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
      ],
    };
    const envelope = (id: string, name: string) => `{"id":"${id}","type":"function","function":{"name":"${name}","arguments":""}}`.length;
    const chars = 2 + envelope("c1", "terminal") + '{"cmd":"ls -la"}'.length + envelope("c2", "read_file") + '{"path":"a.ts"}'.length;
    expect(estimateMessageTokensRough(message)).toBe(Math.ceil(chars / 4) + MESSAGE_ENVELOPE_TOKENS);
  });

  it("sums over messages", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "x".repeat(8) },
      { role: "user", content: "x".repeat(3) },
      { role: "tool", tool_call_id: "c1", content: "x".repeat(100) },
    ];
    expect(estimateMessagesTokensRough(messages)).toBe(2 + 1 + Math.ceil((100 + "c1".length) / 4) + 3 * MESSAGE_ENVELOPE_TOKENS);
    expect(estimateMessagesTokensRough([])).toBe(0);
  });
});

describe("what a message counts (messageTokenParts)", () => {
  const texts = (message: ChatMessage) => messageTokenParts(message).texts;

  it("reads every replay field at its place in REPLAY_FIELDS, and nothing for a message without one", () => {
    REPLAY_FIELDS.forEach((field, index) => {
      const values = replayFieldValues({ role: "assistant", content: "ok", [field]: "x" } as ChatMessage);
      expect(values?.map((v, i) => (v === undefined ? i : -1)).filter((i) => i >= 0)).toHaveLength(REPLAY_FIELDS.length - 1);
      expect(values?.[index]).toBe("x");
    });
    expect(replayFieldValues({ role: "assistant", content: "ok" })).toBeUndefined();
  });

  it.each(["reasoning_content", "reasoning", "encrypted_content"])("counts the replayed string field %s", (field) => {
    expect(texts({ role: "assistant", content: "ok", [field]: "step one, then two" } as ChatMessage)).toContain("step one, then two");
  });

  it.each(["reasoning_details", "thinking", "codex_reasoning_items", "codex_message_items"])("counts the structured replay field %s as its JSON", (field) => {
    const value = [{ type: "reasoning.encrypted", data: "gAAAAB…", signature: "sig" }];
    expect(texts({ role: "assistant", content: "ok", [field]: value } as ChatMessage)).toContain(JSON.stringify(value));
  });

  it("counts a thinking content block with its signature", () => {
    const block = { type: "thinking", thinking: "let me check", signature: "EqQBCkYIBxgCKkB" };
    expect(texts({ role: "assistant", content: [block] })).toEqual([JSON.stringify(block)]);
  });

  it("counts a tool message's tool_call_id and name", () => {
    expect(texts({ role: "tool", tool_call_id: "call_42", name: "terminal", content: "done" })).toEqual(["done", "call_42", "terminal"]);
  });

  it("counts a tool call's id, type and call_id in its envelope", () => {
    const message: ChatMessage = { role: "assistant", content: null, tool_calls: [{ id: "c1", call_id: "fc_9", type: "function", function: { name: "t", arguments: "{}" } }] };
    const [envelope, args] = texts(message);
    expect(JSON.parse(envelope!)).toEqual({ id: "c1", call_id: "fc_9", type: "function", function: { name: "t", arguments: "" } });
    expect(args).toBe("{}");
  });
});

describe("rough estimate of non-Latin scripts", () => {
  const exact = new TiktokenCounter();
  const samples = {
    Chinese: "上下文引擎是大型语言模型代理的插件宿主。它在对话变得太长时压缩历史记录，同时保留最近的消息和重要的决定。每个会话都存储在本地数据库中，可以搜索和撤销。",
    Japanese: "コンテキストエンジンは大規模言語モデルのエージェントのためのプラグインホストです。会話が長くなりすぎると、最近のメッセージと重要な決定を残しながら履歴を圧縮します。",
    Korean: "컨텍스트 엔진은 대규모 언어 모델 에이전트를 위한 플러그인 호스트입니다. 대화가 너무 길어지면 최근 메시지와 중요한 결정을 유지하면서 기록을 압축합니다.",
    Thai: "เอนจินบริบทเป็นโฮสต์ปลั๊กอินสำหรับเอเจนต์ของโมเดลภาษาขนาดใหญ่ เมื่อการสนทนายาวเกินไป มันจะบีบอัดประวัติ",
  };

  it.each(Object.entries(samples).map(([script, text]) => ({ script, text })))("estimates $script text within 30% of the exact count", ({ text }) => {
    const message: ChatMessage = { role: "user", content: text };
    const rough = estimateMessageTokensRough(message);
    const real = exact.countMessages([message]);
    expect(Math.abs(rough - real) / real).toBeLessThan(0.3);
  });

  it("keeps (chars + 3) // 4 for accented Latin text", () => {
    const text = "Die Kontext-Engine komprimiert den Verlauf, wenn das Gespräch zu lang wird. Voilà, ça marche.";
    expect(estimateTokensRough(text)).toBe(Math.floor((text.length + 3) / 4));
  });
});

describe("the rough estimate of tool-call envelopes", () => {
  /** The estimate as defined: every segment of messageTokenParts measured in quarter-tokens. */
  const byDefinition = (message: ChatMessage) => {
    const { texts, images } = messageTokenParts(message);
    return Math.ceil(texts.reduce((sum, text) => sum + roughQuarters(text), 0) / 4) + images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
  };
  const text = fc.string({ unit: fc.constantFrom(..."ab Z_-.:/", '"', "\\", "\n", "\u0001", "é", "中", "\ud83c", "🎉", "\u2028") , maxLength: 12 });
  const extra = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.dictionary(text, fc.oneof(text, fc.integer()), { maxKeys: 2 }), fc.array(text, { maxLength: 2 }));
  const call = fc.record({ id: text, type: fc.constant("function" as const), function: fc.record({ name: text, arguments: text }), extra }).map(({ extra: value, ...c }) => ({ ...c, ...(value === undefined ? {} : { call_id: value }) }));

  it("equals the estimate of the serialized envelope for any call, computed without serializing plain ones", () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), (calls) => {
        const message = { role: "assistant", content: null, tool_calls: calls } as unknown as ChatMessage;
        expect(estimateMessageTokensRough(message)).toBe(byDefinition(message));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("roughQuarters on mixed scripts", () => {
  /** The weights char by char: 3 extra quarters for CJK, kana, Hangul, full-width forms and surrogate halves, 1 for Thai. */
  const charByChar = (text: string): number => {
    let quarters = 0;
    for (const unit of text.split("")) {
      const c = unit.charCodeAt(0);
      const heavy = (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xdfff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
      quarters += heavy ? 3 : c >= 0x0e00 && c <= 0x0e7f ? 2 : 1;
    }
    return quarters;
  };

  it("weighs every char as its script says, whatever lighter non-Latin chars come first", () => {
    const pieces = ["a", " ", "“", "→", "…", "é", "ก", "ᄀ", "漢", "か", "한", "😀", "Ａ", "\u0dff", "\u0e80", "\u2fff", "\ufff0"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        expect(roughQuarters(text)).toBe(charByChar(text));
      }),
      { numRuns: 500 },
    );
  });
});
