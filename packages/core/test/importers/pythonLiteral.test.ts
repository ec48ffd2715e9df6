import { describe, expect, it } from "vitest";
import { parseJsonOrPythonLiteral, parsePythonLiteral, PythonLiteralError } from "../../src/importers/pythonLiteral.js";

describe("parsePythonLiteral", () => {
  it("reads a repr() list of tool-call dicts with single-quoted strings holding JSON", () => {
    const repr = `[{'function': {'arguments': '{"file_name":"missing_colon.py"}', 'name': 'find_file'}, 'id': 'call_1', 'type': 'function'}]`;
    expect(parsePythonLiteral(repr)).toEqual([
      { function: { arguments: '{"file_name":"missing_colon.py"}', name: "find_file" }, id: "call_1", type: "function" },
    ]);
  });

  it("decodes escapes, quotes inside strings, None/True/False, numbers and tuples", () => {
    expect(parsePythonLiteral(`{'a': "it's", 'b': 'line\\nnext\\t\\'q\\'', 'c': None, 'd': True, 'e': False, 'f': -1.5e3, 'g': (1, 2)}`)).toEqual({
      a: "it's",
      b: "line\nnext\t'q'",
      c: null,
      d: true,
      e: false,
      f: -1500,
      g: [1, 2],
    });
  });

  it("decodes \\x, \\u escapes and keeps raw strings as written", () => {
    expect(parsePythonLiteral(`['caf\\xe9', '\\u2713', r'a\\nb']`)).toEqual(["café", "✓", "a\\nb"]);
  });

  it("reads triple-quoted strings spanning lines", () => {
    expect(parsePythonLiteral(`'''first\nsecond'''`)).toBe("first\nsecond");
  });

  it("names the offset of a syntax error", () => {
    expect(() => parsePythonLiteral("[1, 2")).toThrow(PythonLiteralError);
    expect(() => parsePythonLiteral("{'a' 1}")).toThrow(/offset 5/);
  });

  it("prefers JSON and falls back to a Python literal", () => {
    expect(parseJsonOrPythonLiteral('["call_1"]')).toEqual(["call_1"]);
    expect(parseJsonOrPythonLiteral("['call_1']")).toEqual(["call_1"]);
  });
});
