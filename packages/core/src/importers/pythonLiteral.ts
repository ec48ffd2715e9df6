/**
 * A parser for Python literals as `repr()` writes them (SWE-agent stores some `tool_calls` this way):
 * strings in single, double or triple quotes with escapes and r/b/u prefixes, numbers, None/True/False,
 * lists, tuples, sets and dicts. Anything else is a syntax error naming the character offset.
 */

/** Thrown by {@link parsePythonLiteral}; `offset` is the character position of the problem. */
export class PythonLiteralError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = "PythonLiteralError";
    this.offset = offset;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
};

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const value = this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`unexpected ${JSON.stringify(this.text[this.pos])}`);
    return value;
  }

  private fail(message: string): never {
    throw new PythonLiteralError(message, this.pos);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? "")) this.pos += 1;
  }

  private value(): unknown {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === undefined) this.fail("unexpected end of input");
    if (ch === "[") return this.sequence("[", "]");
    if (ch === "(") return this.sequence("(", ")");
    if (ch === "{") return this.braces();
    if (ch === "'" || ch === '"') return this.string("");
    const prefix = /^([rRbBuU]{1,2})['"]/.exec(this.text.slice(this.pos, this.pos + 3));
    if (prefix?.[1] !== undefined) {
      this.pos += prefix[1].length;
      return this.string(prefix[1].toLowerCase());
    }
    const word = /^(None|True|False)\b/.exec(this.text.slice(this.pos));
    if (word?.[1] !== undefined) {
      this.pos += word[1].length;
      return word[1] === "None" ? null : word[1] === "True";
    }
    const number = /^[-+]?(\d[\d_]*\.?[\d_]*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?|inf|nan)/i.exec(this.text.slice(this.pos));
    if (number?.[0] !== undefined) {
      this.pos += number[0].length;
      return Number(number[0].replace(/_/g, "").replace(/^([-+]?)inf$/i, "$1Infinity").replace(/^[-+]?nan$/i, "NaN"));
    }
    this.fail(`unexpected ${JSON.stringify(ch)}`);
  }

  private sequence(open: string, close: string): unknown[] {
    this.pos += open.length;
    const items: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === close) {
        this.pos += 1;
        return items;
      }
      items.push(this.value());
      this.skipSpace();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos += 1;
      else if (sep !== close) this.fail(`expected "," or "${close}"`);
    }
  }

  /** `{}` is a dict; `{a, b}` a set (returned as an array). */
  private braces(): unknown {
    this.pos += 1;
    const dict: Record<string, unknown> = {};
    const set: unknown[] = [];
    let kind: "dict" | "set" | undefined;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === "}") {
        this.pos += 1;
        return kind === "set" ? set : dict;
      }
      const key = this.value();
      this.skipSpace();
      if (this.text[this.pos] === ":" && kind !== "set") {
        kind = "dict";
        this.pos += 1;
        dict[typeof key === "string" ? key : JSON.stringify(key)] = this.value();
      } else if (kind !== "dict") {
        kind = "set";
        set.push(key);
      } else {
        this.fail('expected ":"');
      }
      this.skipSpace();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos += 1;
      else if (sep !== "}") this.fail('expected "," or "}"');
    }
  }

  private string(prefix: string): string {
    const quote = this.text[this.pos] ?? "";
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    const delimiter = triple ? quote.repeat(3) : quote;
    const raw = prefix.includes("r");
    this.pos += delimiter.length;
    let out = "";
    for (;;) {
      if (this.pos >= this.text.length) this.fail("unterminated string");
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += delimiter.length;
        return out;
      }
      const ch = this.text[this.pos] ?? "";
      if (ch === "\n" && !triple) this.fail("newline in a single-quoted string");
      if (ch !== "\\") {
        out += ch;
        this.pos += 1;
        continue;
      }
      if (raw) {
        out += ch + (this.text[this.pos + 1] ?? "");
        this.pos += 2;
        continue;
      }
      out += this.escape();
    }
  }

  private escape(): string {
    const start = this.pos;
    const next = this.text[this.pos + 1];
    if (next === undefined) this.fail("unterminated escape");
    this.pos += 2;
    if (next === "\n") return "";
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) return simple;
    const hexLength = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (hexLength > 0) {
      const hex = this.text.slice(this.pos, this.pos + hexLength);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(hex)) {
        this.pos = start;
        this.fail(`bad \\${next} escape`);
      }
      this.pos += hexLength;
      return String.fromCodePoint(parseInt(hex, 16));
    }
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{0,2}/.exec(this.text.slice(this.pos))?.[0] ?? "";
      this.pos += octal.length;
      return String.fromCodePoint(parseInt(next + octal, 8));
    }
    return "\\" + next; // Python keeps unknown escapes as written
  }
}

/** Parses one Python literal (`repr()` output) into plain JSON-like values; dict keys become strings. */
export function parsePythonLiteral(text: string): unknown {
  return new Parser(text).parseDocument();
}

/** Parses `text` as JSON, falling back to a Python literal (a `repr()` string); throws when neither fits. */
export function parseJsonOrPythonLiteral(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parsePythonLiteral(text);
  }
}
