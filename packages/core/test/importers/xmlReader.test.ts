import { describe, expect, it } from "vitest";
import { childElement, childElements, ownText, parseXml, XmlSyntaxError } from "../../src/importers/xmlReader.js";

/** The error `parseXml(text)` throws. */
function failure(text: string): XmlSyntaxError {
  try {
    parseXml(text);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return error;
    throw error;
  }
  throw new Error("parsed without an error");
}

describe("parseXml", () => {
  it("decodes the five predefined entities and decimal and hex character references", () => {
    const root = parseXml("<a>&lt;b&gt; &amp; &quot;q&quot; &apos;s&apos; &#65;&#x42;&#x1F600;</a>");
    expect(ownText(root)).toBe("<b> & \"q\" 's' AB😀");
  });

  it("decodes entities in attribute values, in either quote style", () => {
    const root = parseXml(`<a x="1 &lt; 2 &amp;&amp; &quot;y&quot;" y='it&apos;s'/>`);
    expect(root.attributes).toEqual({ x: '1 < 2 && "y"', y: "it's" });
  });

  it("keeps CDATA text as written, entities and markup included", () => {
    const root = parseXml("<a>before <![CDATA[<not-a-tag> &amp; ]] >]]> after</a>");
    expect(ownText(root)).toBe("before <not-a-tag> &amp; ]] > after");
  });

  it("skips the declaration, comments, processing instructions and a simple DOCTYPE", () => {
    const root = parseXml('<?xml version="1.0" ?>\n<!DOCTYPE a>\n<!-- c -->\n<a><!-- inner --><?pi x?><b/></a>\n<!-- tail -->\n');
    expect(root.name).toBe("a");
    expect(childElements(root).map((c) => c.name)).toEqual(["b"]);
  });

  it("keeps children in order with the line each element opens on, also for a start tag over several lines", () => {
    const root = parseXml("<root>\n  <one>1</one>\n  <two\n     k='v'>\n    <three/>\n  </two>\n</root>");
    expect(childElements(root).map((c) => [c.name, c.line])).toEqual([
      ["one", 2],
      ["two", 3],
    ]);
    expect(childElement(childElement(root, "two")!, "three")?.line).toBe(5);
    expect(ownText(childElement(root, "one")!)).toBe("1");
  });

  it("names the line of a closing tag that does not match", () => {
    expect(failure("<a>\n<b>\n</c>\n</a>").line).toBe(3);
  });

  it("names the element that is never closed", () => {
    expect(() => parseXml("<a>\n<b>text")).toThrow(/<b> \(line 2\) is never closed/);
  });

  it("rejects an unknown entity and a bare ampersand with their line", () => {
    expect(failure("<a>\n&nbsp;</a>")).toMatchObject({ line: 2, message: expect.stringMatching(/^line 2: .*entity/) });
    expect(failure("<a>fish & chips</a>").line).toBe(1);
  });

  it("does not expand an entity a DOCTYPE declares: its reference is an error naming the line", () => {
    const bomb = '<?xml version="1.0"?>\n<!DOCTYPE a [\n  <!ENTITY lol "lol">\n  <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n<a>\n&lol2;</a>';
    expect(failure(bomb)).toMatchObject({ line: 7, message: "line 7: undefined entity" });
  });

  it("rejects what XML forbids that a lenient reader lets through: a control character, -- in a comment, a late declaration", () => {
    expect(failure("<a>\nbell \u0001</a>").line).toBe(2);
    expect(failure("<a>\n<!-- a -- b --></a>").line).toBe(2);
    expect(failure('\n<?xml version="1.0"?><a/>').message).toMatch(/declaration/);
  });

  it("rejects unquoted attributes, a second root, text outside the root and an empty document", () => {
    expect(() => parseXml("<a x=1/>")).toThrow(XmlSyntaxError);
    expect(() => parseXml("<a/><b/>")).toThrow(XmlSyntaxError);
    expect(() => parseXml("text")).toThrow(XmlSyntaxError);
    expect(() => parseXml("")).toThrow(/root element/);
  });

  it("rejects an unterminated CDATA section or comment", () => {
    expect(() => parseXml("<a><![CDATA[open</a>")).toThrow(XmlSyntaxError);
    expect(() => parseXml("<a><!-- open</a>")).toThrow(XmlSyntaxError);
  });
});
