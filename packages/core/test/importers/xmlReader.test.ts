import { describe, expect, it } from "vitest";
import { childElement, childElements, decodeXmlEntities, ownText, parseXml, XmlSyntaxError } from "../../src/importers/xmlReader.js";

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

  it("keeps children in order with the line each element opens on", () => {
    const root = parseXml("<root>\n  <one>1</one>\n  <two k='v'>\n    <three/>\n  </two>\n</root>");
    expect(childElements(root).map((c) => [c.name, c.line])).toEqual([
      ["one", 2],
      ["two", 3],
    ]);
    expect(childElement(childElement(root, "two")!, "three")?.line).toBe(4);
    expect(ownText(childElement(root, "one")!)).toBe("1");
  });

  it("names the line of a closing tag that does not match", () => {
    expect(() => parseXml("<a>\n<b>\n</c>\n</a>")).toThrow(new XmlSyntaxError("closing tag </c> does not match <b> (line 2)", 3));
  });

  it("names the element that is never closed", () => {
    expect(() => parseXml("<a>\n<b>text")).toThrow(/<b> \(line 2\) is never closed/);
  });

  it("rejects an unknown entity and a bare ampersand with their line", () => {
    expect(() => parseXml("<a>\n&nbsp;</a>")).toThrow(/^line 2: unknown entity "&nbsp;"/);
    expect(() => parseXml("<a>fish & chips</a>")).toThrow(/^line 1: "&" not followed by an entity reference/);
  });

  it("rejects bad character references, unquoted attributes and a second root", () => {
    expect(() => decodeXmlEntities("&#xZZ;")).toThrow(/bad character reference/);
    expect(() => decodeXmlEntities("&#xD800;")).toThrow(/bad character reference/);
    expect(() => parseXml("<a x=1/>")).toThrow(/attribute "x" of <a> is not quoted/);
    expect(() => parseXml("<a/><b/>")).toThrow(/second root element <b>/);
    expect(() => parseXml("text")).toThrow(/text outside the root element/);
    expect(() => parseXml("")).toThrow(/no root element/);
  });

  it("rejects an unterminated CDATA section or comment", () => {
    expect(() => parseXml("<a><![CDATA[open</a>")).toThrow(/unterminated CDATA section/);
    expect(() => parseXml("<a><!-- open</a>")).toThrow(/unterminated comment/);
  });
});
