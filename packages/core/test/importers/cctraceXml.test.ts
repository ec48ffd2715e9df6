import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCctraceXml } from "../../src/importers/cctraceXml.js";
import { detectTranscriptFormat, importTranscript, importTranscriptFile, TranscriptImportError } from "../../src/importers/index.js";
import { CORPUS_DIR, countRoles, countToolCalls, expectValidConversation, HAS_CORPUS, rawFixture } from "./helpers.js";

const EXCERPT = "cctrace/conversation_full.excerpt.xml";

/** A cctrace document around `messages` (the `<message>` elements' XML). */
function session(messages: string): string {
  return `<?xml version="1.0" ?>\n<claude-session xmlns="https://claude.ai/session-export/v1" export-version="1.0">\n  <metadata/>\n  <messages>\n${messages}\n  </messages>\n</claude-session>\n`;
}

function user(content: string, timestamp = "2025-07-02T20:00:00.000Z"): string {
  return `    <message uuid="u" timestamp="${timestamp}">\n      <event-type>user</event-type>\n      <role>user</role>\n      <content>${content}</content>\n    </message>`;
}

function assistant(content: string, requestId = "req_1"): string {
  return `    <message uuid="a" timestamp="2025-07-02T20:00:01.000Z">\n      <event-type>assistant</event-type>\n      <request-id>${requestId}</request-id>\n      <role>assistant</role>\n      <content>${content}</content>\n    </message>`;
}

describe("importCctraceXml", () => {
  it("imports the bundled excerpt to valid messages: thinking dropped, tool calls paired with their results", () => {
    const result = importTranscript(rawFixture(EXCERPT), { fileName: EXCERPT });
    expect(result.format).toBe("cctrace-xml");
    expect(result.warnings).toEqual([]);
    expectValidConversation(result.messages);
    expect(countRoles(result.messages)).toEqual({ user: 5, assistant: 12, tool: 8 });
    expect(countToolCalls(result.messages)).toBe(8);
    const [first, second, third] = result.messages;
    expect(first).toMatchObject({ role: "user", timestamp: "2025-07-02T20:06:59.614Z" });
    expect(first?.content).toMatch(/^ULTRATHINK this one\./);
    // three records of one request (thinking, text, tool_use) are one assistant message
    expect(second?.content).toMatch(/^I'll help you find where Claude Code stores session data/);
    expect(second?.tool_calls).toEqual([
      {
        id: "toolu_01UoMw6EsMnxNmC7Ng2kbHsm",
        type: "function",
        function: {
          name: "WebFetch",
          arguments: JSON.stringify({
            url: "https://docs.anthropic.com/en/docs/claude-code/monitoring-usage",
            prompt:
              "Look for information about where Claude Code stores session data, logs, chat history, or any JSONL format files. Focus on session IDs, log files, and data storage locations.",
          }),
        },
      },
    ]);
    expect(third).toMatchObject({ role: "tool", tool_call_id: "toolu_01UoMw6EsMnxNmC7Ng2kbHsm" });
    expect(third?.content).toMatch(/^Based on the provided documentation/);
    expect(result.messages.some((m) => typeof m.content === "string" && m.content.includes("The user wants me to"))).toBe(false);
  });

  it("decodes entities in plain-string content and in tool results", () => {
    const result = importTranscript(rawFixture(EXCERPT), { fileName: EXCERPT });
    const command = result.messages.find((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith("<command-message>"));
    expect(command?.content).toBe("<command-message>export is running…</command-message>\n<command-name>/export</command-name>");
    const read = result.messages.find((m) => m.role === "tool" && typeof m.content === "string" && m.content.includes("def identify_current_session"));
    expect(read?.content).toContain(`    34→    """Try to identify which session belongs to the current Claude instance."""`);
    expect(read?.content).toContain("if current_time - session['mtime'] < 1.0:");
  });

  it("reads CDATA, numeric references, an empty self-closing result and a Python-repr result", () => {
    const text = session(
      [
        user("<text><![CDATA[a <b> & c]]> &#233;&#x263A;</text>"),
        assistant('<text>ok</text><tool-use id="t1" name="Bash"><input>{"command": "ls &amp;&amp; pwd"}</input></tool-use><tool-use id="t2" name="Read"><input>{}</input></tool-use>'),
        user('<tool-result tool-use-id="t1"/><tool-result tool-use-id="t2">[{\'type\': \'text\', \'text\': \'line one\'}, {\'type\': \'text\', \'text\': "it\'s two"}]</tool-result>'),
      ].join("\n"),
    );
    const result = importCctraceXml(text, { fileName: "s.xml" });
    expect(result.warnings).toEqual([]);
    expect(result.messages).toEqual([
      { role: "user", content: "a <b> & c é☺", timestamp: "2025-07-02T20:00:00.000Z" },
      {
        role: "assistant",
        content: "ok",
        timestamp: "2025-07-02T20:00:01.000Z",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "Bash", arguments: '{"command":"ls && pwd"}' } },
          { id: "t2", type: "function", function: { name: "Read", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "", timestamp: "2025-07-02T20:00:00.000Z" },
      { role: "tool", tool_call_id: "t2", content: "line one\nit's two", timestamp: "2025-07-02T20:00:00.000Z" },
    ]);
    expectValidConversation(result.messages);
  });

  it("merges assistant records that share a request id into one message", () => {
    const text = session(
      [
        user("<text>hi</text>"),
        assistant('<thinking signature="s">hmm</thinking>', "req_A"),
        assistant("<text>first</text>", "req_A"),
        assistant('<tool-use id="t1" name="LS"><input>{"path": "/"}</input></tool-use>', "req_A"),
        user('<tool-result tool-use-id="t1">bin</tool-result>'),
        assistant("<text>done</text>", "req_B"),
      ].join("\n"),
    );
    const { messages } = importCctraceXml(text, { fileName: "s.xml" });
    expect(messages.map((m) => [m.role, m.content, m.tool_calls?.length ?? 0])).toEqual([
      ["user", "hi", 0],
      ["assistant", "first", 1],
      ["tool", "bin", 0],
      ["assistant", "done", 0],
    ]);
  });

  it("reports blocks it does not understand and input that is not JSON with file:line", () => {
    const text = session(
      [
        user("<text>hi</text>"),
        assistant('<image src="x"/><tool-use id="t1" name="Bash"><input>not json</input></tool-use>'),
        user('<tool-result tool-use-id="t1">out</tool-result>'),
      ].join("\n"),
    );
    const result = importCctraceXml(text, { fileName: "s.xml" });
    expect(result.warnings).toEqual(["s.xml:14: <image> block not understood; skipped", "s.xml:14: tool-use input is not JSON; kept as written"]);
    expect(result.messages[1]?.tool_calls?.[0]?.function.arguments).toBe("not json");
  });

  it("fails on malformed XML with an error naming the file and line", () => {
    const broken = session(user("<text>unclosed")).replace("</content>", "</contents>");
    expect(() => importCctraceXml(broken, { fileName: "bad.xml" })).toThrow(TranscriptImportError);
    expect(() => importCctraceXml(broken, { fileName: "bad.xml" })).toThrow(/^bad\.xml:8: malformed XML: /);
    expect(() => importCctraceXml(session(user("a &nbsp; b")), { fileName: "bad.xml" })).toThrow(/^bad\.xml:8: malformed XML: undefined entity/);
  });

  it("fails with an error naming the file when the document is not a cctrace export or has no messages", () => {
    expect(() => importCctraceXml("<html><body/></html>", { fileName: "page.xml" })).toThrow(/^page\.xml:1: root element is <html>, not <claude-session>/);
    expect(() => importCctraceXml("<claude-session/>", { fileName: "empty.xml" })).toThrow(/^empty\.xml: <claude-session> has no <messages> element/);
    expect(() => importCctraceXml(session(""), { fileName: "none.xml" })).toThrow(/^none\.xml: no user or assistant <message> elements found/);
  });

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(rawFixture(EXCERPT))).toBe("cctrace-xml");
    expect(detectTranscriptFormat(session(user("<text>hi</text>")))).toBe("cctrace-xml");
    expect(detectTranscriptFormat("<html><body/></html>")).toBeUndefined();
  });
});

describe.skipIf(!HAS_CORPUS)("cctrace corpus transcript", () => {
  it("imports conversation_full.xml: 357 records, 133 tool uses of which the last has no result", async () => {
    const path = "cctrace/conversation_full.xml";
    const result = await importTranscriptFile(join(CORPUS_DIR, path), { fileName: path });
    expect(result.format).toBe("cctrace-xml");
    expectValidConversation(result.messages);
    expect(countToolCalls(result.messages)).toBe(132);
    expect(countRoles(result.messages)).toEqual({ user: 19, assistant: 144, tool: 132 });
    expect(result.warnings).toEqual([`${path}:9810: tool call "toolu_01WQX67JuCZ11QdS8nrNgbfW" (Bash) has no result; left out of tool_calls`]);
  });
});
