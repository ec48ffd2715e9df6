/**
 * XML for transcript exports, read with saxes (a strict, non-validating XML 1.0 parser): elements,
 * attributes, text and CDATA into a small tree; comments, processing instructions and the DOCTYPE are
 * skipped. Entity expansion is off: the five predefined entities and character references are decoded,
 * any other reference (a DTD-declared one included) is an error, so a document cannot grow itself.
 * Anything not well-formed is an {@link XmlSyntaxError} naming the line. Namespaces are not resolved:
 * names are kept as written (`ns:name`).
 */
import { SaxesParser } from "saxes";

/** One element: its name, attributes, children (elements and text, in order) and the line it opens on. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** 1-based line of the `<` that opens the element. */
  line: number;
}

/** A child of an element: another element or a run of text (CDATA included, entities decoded). */
export type XmlNode = XmlElement | string;

/** Thrown for input that is not well-formed XML; `line` is 1-based. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "XmlSyntaxError";
  }
}

/** A saxes error (`line:column: message`) as an {@link XmlSyntaxError}. */
function syntaxError(error: unknown, fallbackLine: number): XmlSyntaxError {
  if (error instanceof XmlSyntaxError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const match = /^(\d+):\d+: ([\s\S]*)$/.exec(text);
  return match === null ? new XmlSyntaxError(text, fallbackLine) : new XmlSyntaxError((match[2] as string).replace(/\.$/, ""), Number(match[1]));
}

/** Parses `text` as one XML document and returns its root element. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let openLine = 1;

  const append = (node: XmlNode) => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) return;
    const last = parent.children[parent.children.length - 1];
    if (typeof node === "string" && typeof last === "string") parent.children[parent.children.length - 1] = last + node;
    else parent.children.push(node);
  };

  // saxes reports the tag once its name has ended; a name ended by a line break is on the line before.
  parser.on("opentagstart", () => {
    openLine = parser.column === 0 ? parser.line - 1 : parser.line;
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], line: openLine };
    if (stack.length === 0) root = element;
    else append(element);
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on("closetag", (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on("text", (chunk) => {
    if (stack.length > 0) append(chunk);
  });
  parser.on("cdata", (chunk) => append(chunk));

  try {
    parser.write(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw syntaxError(error, parser.line);
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed !== undefined) throw new XmlSyntaxError(`<${unclosed.name}> (line ${unclosed.line}) is never closed`, parser.line);
  try {
    parser.close();
  } catch (error) {
    throw syntaxError(error, parser.line);
  }
  if (root === undefined) throw new XmlSyntaxError("no root element", parser.line);
  return root;
}

/** The child elements of `element`, optionally only those named `name`. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== "string" && (name === undefined || c.name === name));
}

/** The first child element named `name`, if any. */
export function childElement(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c): c is XmlElement => typeof c !== "string" && c.name === name);
}

/** The concatenated text of `element`'s own text children (not of nested elements). */
export function ownText(element: XmlElement): string {
  return element.children.filter((c): c is string => typeof c === "string").join("");
}
