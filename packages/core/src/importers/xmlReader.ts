/**
 * A small, strict XML reader for transcript exports: elements, attributes, text, CDATA, comments,
 * processing instructions and a simple DOCTYPE. The five predefined entities and numeric character
 * references are decoded; anything else that is not well-formed (an unknown entity, a mismatched or
 * unclosed tag, a `<` in text) is an {@link XmlSyntaxError} naming the line. Namespaces are not
 * resolved: names are kept as written (`ns:name`). No DTD-declared entities.
 */

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

const PREDEFINED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const NAME_START = /[A-Za-z_:\u00C0-\uFFFF]/;
const NAME_CHAR = /[A-Za-z0-9_:.\-\u00B7\u00C0-\uFFFF]/;

/** Decodes the entity and character references of `raw` (text or an attribute value starting on `line`). */
export function decodeXmlEntities(raw: string, line = 1): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&([^;&\s<]*);?/g, (match, body: string, offset: number) => {
    const fail = (message: string): never => {
      throw new XmlSyntaxError(message, line + (raw.slice(0, offset).match(/\n/g)?.length ?? 0));
    };
    if (!match.endsWith(";")) fail(`"&" not followed by an entity reference ("${match.slice(0, 12)}")`);
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      const digits = body[1] === "x" || body[1] === "X" ? /^#[xX][0-9A-Fa-f]+$/ : /^#[0-9]+$/;
      if (!digits.test(body) || !Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        fail(`bad character reference "&${body};"`);
      }
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED_ENTITIES[body];
    return value ?? fail(`unknown entity "&${body};"`);
  });
}

/** Cursor over the input that keeps the current line number. */
class Scanner {
  pos = 0;
  line = 1;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** Moves to `end` (exclusive), counting the newlines passed. */
  advanceTo(end: number): string {
    const chunk = this.text.slice(this.pos, end);
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) this.line += 1;
    this.pos = end;
    return chunk;
  }

  /** Consumes through the next `terminator`, returning what came before it. */
  until(terminator: string, what: string): string {
    const end = this.text.indexOf(terminator, this.pos);
    if (end === -1) throw new XmlSyntaxError(`unterminated ${what} (no "${terminator}")`, this.line);
    const chunk = this.advanceTo(end);
    this.advanceTo(end + terminator.length);
    return chunk;
  }

  skipSpace(): void {
    let end = this.pos;
    while (end < this.text.length && /\s/.test(this.text[end] as string)) end += 1;
    this.advanceTo(end);
  }

  name(what: string): string {
    const start = this.pos;
    if (!NAME_START.test(this.text[start] ?? "")) throw new XmlSyntaxError(`expected ${what} name`, this.line);
    let end = start + 1;
    while (end < this.text.length && NAME_CHAR.test(this.text[end] as string)) end += 1;
    return this.advanceTo(end);
  }
}

/** Reads the attributes and the end of a start tag; returns whether it was self-closing. */
function readAttributes(s: Scanner, attributes: Record<string, string>, tag: string): boolean {
  for (;;) {
    const before = s.pos;
    s.skipSpace();
    if (s.startsWith("/>")) {
      s.advanceTo(s.pos + 2);
      return true;
    }
    if (s.startsWith(">")) {
      s.advanceTo(s.pos + 1);
      return false;
    }
    if (s.done) throw new XmlSyntaxError(`unterminated start tag <${tag}>`, s.line);
    if (s.pos === before) throw new XmlSyntaxError(`expected whitespace between attributes of <${tag}>`, s.line);
    const name = s.name("attribute");
    s.skipSpace();
    if (!s.startsWith("=")) throw new XmlSyntaxError(`attribute "${name}" of <${tag}> has no value`, s.line);
    s.advanceTo(s.pos + 1);
    s.skipSpace();
    const quote = s.text[s.pos];
    if (quote !== '"' && quote !== "'") throw new XmlSyntaxError(`attribute "${name}" of <${tag}> is not quoted`, s.line);
    s.advanceTo(s.pos + 1);
    const line = s.line;
    const raw = s.until(quote, `attribute "${name}" value`);
    if (raw.includes("<")) throw new XmlSyntaxError(`"<" in the value of attribute "${name}"`, line);
    if (name in attributes) throw new XmlSyntaxError(`attribute "${name}" repeated on <${tag}>`, line);
    attributes[name] = decodeXmlEntities(raw, line);
  }
}

/** Skips `<?…?>`, `<!--…-->` and `<!DOCTYPE…>` at the cursor; returns false when none is there. */
function skipMarkup(s: Scanner): boolean {
  if (s.startsWith("<?")) {
    s.until("?>", "processing instruction");
    return true;
  }
  if (s.startsWith("<!--")) {
    s.advanceTo(s.pos + 4);
    s.until("-->", "comment");
    return true;
  }
  if (s.startsWith("<!DOCTYPE")) {
    if (s.text.indexOf("[", s.pos) !== -1 && s.text.indexOf("[", s.pos) < s.text.indexOf(">", s.pos)) {
      throw new XmlSyntaxError("DOCTYPE with an internal subset is not supported", s.line);
    }
    s.until(">", "DOCTYPE");
    return true;
  }
  return false;
}

/** Parses `text` as one XML document and returns its root element. */
export function parseXml(text: string): XmlElement {
  const s = new Scanner(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  const append = (node: XmlNode) => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) return;
    const last = parent.children[parent.children.length - 1];
    if (typeof node === "string" && typeof last === "string") parent.children[parent.children.length - 1] = last + node;
    else parent.children.push(node);
  };

  while (!s.done) {
    const lt = s.text.indexOf("<", s.pos);
    if (lt !== s.pos) {
      const line = s.line;
      const raw = s.advanceTo(lt === -1 ? s.text.length : lt);
      if (stack.length === 0) {
        if (raw.trim() !== "") throw new XmlSyntaxError("text outside the root element", line);
      } else {
        if (raw.includes("]]>")) throw new XmlSyntaxError('"]]>" in text', line);
        append(decodeXmlEntities(raw, line));
      }
      continue;
    }
    if (s.startsWith("<![CDATA[")) {
      if (stack.length === 0) throw new XmlSyntaxError("CDATA outside the root element", s.line);
      s.advanceTo(s.pos + 9);
      append(s.until("]]>", "CDATA section"));
      continue;
    }
    if (skipMarkup(s)) continue;
    const line = s.line;
    if (s.startsWith("</")) {
      s.advanceTo(s.pos + 2);
      const name = s.name("closing tag");
      s.skipSpace();
      if (!s.startsWith(">")) throw new XmlSyntaxError(`unterminated closing tag </${name}>`, s.line);
      s.advanceTo(s.pos + 1);
      const open = stack.pop();
      if (open === undefined) throw new XmlSyntaxError(`closing tag </${name}> without an open element`, line);
      if (open.name !== name) throw new XmlSyntaxError(`closing tag </${name}> does not match <${open.name}> (line ${open.line})`, line);
      continue;
    }
    s.advanceTo(s.pos + 1);
    const name = s.name("element");
    if (stack.length === 0 && root !== undefined) throw new XmlSyntaxError(`second root element <${name}>`, line);
    const element: XmlElement = { name, attributes: {}, children: [], line };
    const selfClosing = readAttributes(s, element.attributes, name);
    if (stack.length === 0) root = element;
    else append(element);
    if (!selfClosing) stack.push(element);
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed !== undefined) throw new XmlSyntaxError(`<${unclosed.name}> (line ${unclosed.line}) is never closed`, s.line);
  if (root === undefined) throw new XmlSyntaxError("no root element", s.line);
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
