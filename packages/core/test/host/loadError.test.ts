/** Where a plugin failed: a syntax error at its line and column, a thrown error at the first line of its stack inside the plugin. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { describeLoadError, loadFailureText } from "../../src/host/loadError.js";

describe("describeLoadError", () => {
  const root = tempProject({ "p/index.ts": "const a = 1;\nexport const b = a +;\n" }, "ce-load-error-");
  const file = join(root, "p/index.ts");

  it("reads jiti's parse error: babel's 0-based column becomes 1-based, and the source line gets a caret", () => {
    const described = describeLoadError(new Error(`ParseError: Unexpected token  \n ${file}:2:20`));
    expect(described.position).toEqual({ file, line: 2, column: 21 });
    expect(described.message).toBe("Unexpected token");
    expect(described.text).toBe(`${file}:2:21: Unexpected token\n2 | export const b = a +;\n  | ${" ".repeat(20)}^`);
  });

  it("places a thrown error at the first frame of its stack inside the plugin's folder, by line only", () => {
    const error = new Error("boom");
    error.stack = `Error: boom\n    at helper (/elsewhere/node_modules/lib/x.js:10:5)\n    at start (${file}:1:7)\n    at load (/host/dist/index.js:3:1)`;
    expect(describeLoadError(error, join(root, "p")).text).toBe(`${file}:1: boom\n1 | const a = 1;`);
    expect(describeLoadError(error, "/other/plugin").text).toBe("boom");
    // without a scope a stack is not read: a package's frames are its build's
    expect(describeLoadError(error).position).toBeUndefined();
  });

  it("says what failed after the placed message, or before an unplaced one", () => {
    const parse = new Error(`ParseError: Unexpected token  \n ${file}:2:20`);
    expect(loadFailureText("Context engine 'p' failed to load", parse, undefined, " — falling back")).toMatch(/^.*index\.ts:2:21: Unexpected token \(context engine 'p' failed to load — falling back\)\n2 \| /);
    expect(loadFailureText("Plugin x failed to load", new Error("no such module"), undefined)).toBe("Plugin x failed to load: no such module");
  });
});
