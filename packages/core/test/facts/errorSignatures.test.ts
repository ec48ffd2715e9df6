import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { errorSignatures, failedRead, hasErrorHint, hintedLines, isErrorLine, ownErrorSignatures, stackTracedErrors, toolResultErrors } from "../../src/facts/errorSignatures.js";
import { nonZeroExit } from "../../src/facts/exitStatus.js";

/** Error output as the tools print it (the Go, traceback, shell and tool_use_error lines are from the team corpus). */
const SAMPLES: Record<string, { output: string; expected: string[] }> = {
  "go build": {
    output: "# github.com/specstoryai/specstory-cli/pkg/cmd\npkg/cmd/resume.go:4:2: \"bufio\" imported and not used\npkg/cmd/resume.go:13:2: \"sort\" imported and not used",
    expected: ['pkg/cmd/resume.go:4:2: "bufio" imported and not used', 'pkg/cmd/resume.go:13:2: "sort" imported and not used'],
  },
  "golangci-lint": {
    output: "pkg/sessionindex/store.go:348:2: const snippetMarkEnd is unused (unused)\n1 issues:\n* unused: 1",
    expected: ["pkg/sessionindex/store.go:348:2: const snippetMarkEnd is unused (unused)"],
  },
  "tsc (pretty off)": {
    output: "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error in src/app.ts:12",
    expected: ["src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'."],
  },
  "tsc (pretty)": {
    output: "src/app.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n12   const n: number = \"x\";\n         ~",
    expected: ["src/app.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'."],
  },
  rustc: {
    output: "error[E0308]: mismatched types\n --> src/main.rs:4:18\n  |\n4 |     let x: u32 = \"a\";\n  |            ---   ^^^ expected `u32`, found `&str`\n\nerror: could not compile `demo` (bin \"demo\") due to 1 previous error",
    expected: ["error[E0308]: mismatched types", 'error: could not compile `demo` (bin "demo") due to 1 previous error'],
  },
  pytest: {
    output: "..F\n=== short test summary info ===\nFAILED tests/test_api.py::test_create_item - AssertionError: expected 201, got 422\n1 failed, 2 passed in 0.41s",
    expected: ["FAILED tests/test_api.py::test_create_item - AssertionError: expected 201, got 422"],
  },
  "go test": {
    output: "=== RUN   TestZZPrefix\n--- FAIL: TestZZPrefix (3.33s)\n    store_test.go:88: got 3 results, want 1\nFAIL\tgithub.com/x/y/pkg/sessionindex\t3.412s",
    expected: ["--- FAIL: TestZZPrefix (3.33s)", "store_test.go:88: got 3 results, want 1", "FAIL github.com/x/y/pkg/sessionindex 3.412s"],
  },
  jest: {
    output: " FAIL  src/sum.test.js\n  sum\n    ✓ adds (2 ms)\n    ✕ subtracts (3 ms)\n\n  ● sum › subtracts\n\n    expect(received).toBe(expected)",
    expected: ["FAIL src/sum.test.js", "✕ subtracts (3 ms)", "● sum › subtracts"],
  },
  "python traceback": {
    output:
      'Traceback (most recent call last):\n  File "/pydicom__pydicom/reproduce_bug.py", line 17, in <module>\n    result = np.array_equal(ds.pixel_array, pixel_array)\n  File "/pydicom__pydicom/pydicom/dataset.py", line 1614, in pixel_array\n    self.convert_pixel_data()\nAttributeError: \'FileMetaDataset\' object has no attribute \'PixelRepresentation\'',
    expected: ["AttributeError: 'FileMetaDataset' object has no attribute 'PixelRepresentation'"],
  },
  "ERROR: lines": {
    output: "Collecting foo\nERROR: Could not find a version that satisfies the requirement foo==9.9 (from versions: none)\n[ERROR] Failed to execute goal on project app",
    expected: ["ERROR: Could not find a version that satisfies the requirement foo==9.9 (from versions: none)", "[ERROR] Failed to execute goal on project app"],
  },
  "tool_use_error": {
    output: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
    expected: ["File has not been read yet. Read it first before writing to it."],
  },
  make: {
    output: "cc -o app main.c\nmain.c:3:1: error: unknown type name 'strin'\nmake: *** [Makefile:2: app] Error 1",
    expected: ["main.c:3:1: error: unknown type name 'strin'", "make: *** [Makefile:2: app] Error 1"],
  },
  npm: {
    output: "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found",
    expected: ["npm ERR! code E404", "npm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found"],
  },
  "a shell, ls, OpenHands, Codex apply_patch and SWE-agent's linter": {
    output:
      "/bin/bash: line 1: : No such file or directory\nls: pkg/cmd/search_tui.go: No such file or directory\nRan into [Errno 2] No such file or directory: '/workspace/hello.py' while trying to write\napply_patch verification failed: Failed to find expected lines in /repo/a.go\nYour proposed edit has introduced new syntax error(s). Please read this error message carefully",
    expected: [
      "/bin/bash: line 1: : No such file or directory",
      "ls: pkg/cmd/search_tui.go: No such file or directory",
      "Ran into [Errno 2] No such file or directory: '/workspace/hello.py' while trying to write",
      "apply_patch verification failed: Failed to find expected lines in /repo/a.go",
      "Your proposed edit has introduced new syntax error(s). Please read this error message carefully",
    ],
  },
  "javac and gcc without a column": {
    output: "src/Main.java:12: error: cannot find symbol\n  symbol: variable foo\nx.c:3: fatal error: y.h: No such file or directory",
    expected: ["src/Main.java:12: error: cannot find symbol", "x.c:3: fatal error: y.h: No such file or directory"],
  },
  "the JVM, Maven's surefire and Gradle": {
    output: 'Exception in thread "main" java.lang.IllegalStateException: closed\n\tat app.Main.run(Main.java:8)\nCaused by: java.io.IOException: broken pipe\nTests run: 12, Failures: 2, Errors: 0, Skipped: 0\nTests run: 3, Failures: 0, Errors: 0, Skipped: 0\nFAILURE: Build failed with an exception.',
    expected: ['Exception in thread "main" java.lang.IllegalStateException: closed', "Caused by: java.io.IOException: broken pipe", "Tests run: 12, Failures: 2, Errors: 0, Skipped: 0", "FAILURE: Build failed with an exception."],
  },
  "MSVC, C#, a linker, unittest, Node and a bundler": {
    output: "main.cpp(4): error C2065: 'x': undeclared identifier\nProgram.cs(3,5): error CS0103: The name 'y' does not exist\nmain.o: in function `main': undefined reference to `foo'\nFAILED (failures=1)\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'\nModule not found: Error: Can't resolve './a' in '/app/src'",
    expected: [
      "main.cpp(4): error C2065: 'x': undeclared identifier",
      "Program.cs(3,5): error CS0103: The name 'y' does not exist",
      "main.o: in function `main': undefined reference to `foo'",
      "FAILED (failures=1)",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
      "Module not found: Error: Can't resolve './a' in '/app/src'",
    ],
  },
  "a file editor's error under a bare header": {
    output: "ERROR:\nInvalid `path` parameter: /workspace/app/repro.mjs. File already exists at: /workspace/app/repro.mjs.\n\nError\n  No replacement was performed.",
    expected: ["ERROR: Invalid `path` parameter: /workspace/app/repro.mjs. File already exists at: /workspace/app/repro.mjs.", "Error: No replacement was performed."],
  },
  "shell and panic": {
    output: "(eval):1: command not found: python3.12\npanic: SQL logic error: no such column: src.sessions_fts (1) [recovered, repanicked]",
    expected: ["(eval):1: command not found: python3.12", "panic: SQL logic error: no such column: src.sessions_fts (1) [recovered, repanicked]"],
  },
};

/** Lines made of the pieces error lines (and their look-alikes) are written with. */
const errorishLine = fc
  .array(
    fc.oneof(
      fc.constantFrom("error", "Error", "ERROR", "eRRoR", "TypeError", "Exception", "java.lang.", "Uncaught ", "FAILED", "FAIL", "--- FAIL:", "fail"),
      fc.constantFrom("✕", "✗", "×", "●", "›", "make", "make[2]: *** ", "npm ERR! ", "npm error ", "fatal: ", "panic: ", "thread 'main' panicked at"),
      fc.constantFrom("Segmentation fault", "core dumped", "command not found", "No such file or directory", "cannot access ", "(eval)", "TS2322", "Permission denied", "[Errno 2] ", " failed: ", "Your proposed edit has introduced new syntax error"),
      fc.constantFrom(":", "::", "12", "3", "(", ",", ")", ".go", "_test.go:", "a.py", ".ts", "[E0308]", "]", " ", "  ", "\t", "x", "src/"),
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(""));

describe("errorSignatures", () => {
  it("finds a hint in every line that is an error line, so skipping unhinted text loses none", () => {
    fc.assert(
      fc.property(errorishLine, (line) => {
        if (isErrorLine(line)) expect(hasErrorHint(line)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
    for (const sample of Object.values(SAMPLES)) for (const line of sample.output.split("\n")) if (isErrorLine(line)) expect(hasErrorHint(line)).toBe(true);
  });

  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(`finds the real errors of ${name} output`, () => {
      expect(errorSignatures(sample.output, 20)).toEqual(sample.expected);
    });
  }

  it("ignores prose that only talks about errors, warnings and passing summaries", () => {
    const prose = [
      "I'll add error handling for missing items.",
      "The error TS-style messages are explained in the docs.",
      "Errors are logged to stderr.",
      "src/app.ts:3:1: warning: unused variable 'x'",
      "0 errors, 2 warnings",
      "10 passed, 0 failed",
      "  42→    raise ValueError(\"bad\")",
      "src/app.ts:12:const err = new Error('x')",
    ].join("\n");
    expect(errorSignatures(prose)).toEqual([]);
  });

  it("takes at most six distinct signatures from one output, whitespace collapsed", () => {
    const output = Array.from({ length: 20 }, (_, i) => `src/m${i}.go:${i + 1}:2:   undefined:    name${i}`).join("\n") + "\nsrc/m0.go:1:2: undefined: name0";
    const found = errorSignatures(output);
    expect(found).toHaveLength(6);
    expect(found[0]).toBe("src/m0.go:1:2: undefined: name0");
  });

  it("tells an error line from its neighbours", () => {
    expect(isErrorLine("ValueError: invalid literal for int() with base 10: 'x'")).toBe(true);
    expect(isErrorLine("value error handling")).toBe(false);
  });
});

describe("nonZeroExit", () => {
  it("reads Claude Code's, JSON and prose exit statuses, and ignores exit 0", () => {
    expect(nonZeroExit("Exit code 127\nzsh: command not found: foo")).toBe(127);
    expect(nonZeroExit('{"exit_code": 2, "stdout": ""}')).toBe(2);
    expect(nonZeroExit("the build process exited with code 1")).toBe(1);
    expect(nonZeroExit("ok\nExit code: 0")).toBeUndefined();
    expect(nonZeroExit("all good")).toBeUndefined();
  });
});

describe("toolResultErrors", () => {
  it("prefers signatures, then a failed exit, then the first line of a flagged result", () => {
    expect(toolResultErrors("Exit code 1\nFAILED tests/a.py::t - assert 1 == 2", false)).toEqual({ signatures: ["FAILED tests/a.py::t - assert 1 == 2"] });
    expect(toolResultErrors("Exit code 137\nKilled", false)).toEqual({ signatures: [], failedExit: 137 });
    expect(toolResultErrors("String to replace not found in file.\nString: foo", true)).toEqual({ signatures: ["String to replace not found in file."] });
    expect(toolResultErrors("String to replace not found in file.", false)).toEqual({ signatures: [] });
  });
});

describe("stackTracedErrors", () => {
  it("keeps an exception a program printed with its stack trace although it exited 0", () => {
    const output = "(node:15) Warning: Module type not specified\nError: Error: On-the-fly template compilation is not supported\n    at ssrCompile (file:///app/dist/server.js:559:11)\n    at render (file:///app/repro.mjs:24:24)\n[The command completed with exit code 0.]";
    expect(stackTracedErrors(output)).toEqual(["Error: Error: On-the-fly template compilation is not supported"]);
    expect(toolResultErrors(output, false)).toEqual({ signatures: ["Error: Error: On-the-fly template compilation is not supported"] });
  });

  it("keeps a caught Python traceback's last line and a JVM exception above its frames", () => {
    const python = 'Traceback (most recent call last):\n  File "x.py", line 2, in <module>\nKeyError: \'id\'\nExit code: 0';
    expect(stackTracedErrors(python)).toEqual(["KeyError: 'id'"]);
    const java = "java.lang.IllegalStateException: closed\n\tat com.acme.Pool.get(Pool.java:41)\nexit code: 0";
    expect(stackTracedErrors(java)).toEqual(["java.lang.IllegalStateException: closed"]);
  });

  it("finds nothing in a successful output without a stack trace, whatever it mentions", () => {
    const output = "ERROR: this line is part of the expected log\nTypeError: logged on purpose\n3 passed\nExit code: 0";
    expect(stackTracedErrors(output)).toEqual([]);
    expect(toolResultErrors(output, false)).toEqual({ signatures: [] });
  });
});

describe("failedRead", () => {
  it("tells a read the tool refused from content that only contains error words", () => {
    expect(failedRead("ERROR:\nInvalid `path` parameter: /w/a.ts. The path /w/a.ts does not exist.", false)).toBe(true);
    expect(failedRead("Error: file not found: a.ts", false)).toBe(true);
    expect(failedRead("x", true)).toBe(true);
    expect(failedRead("cat: a.ts: No such file or directory\nExit code 1", false)).toBe(true);
    expect(failedRead("Here's the result of running `cat -n`:\n     1\tERROR: not a failure", false)).toBe(false);
    expect(failedRead("Errors are listed below\nExit code 0", false)).toBe(false);
    expect(failedRead("Error: in a log line\nExit code 0", false)).toBe(false);
  });
});

describe("ownErrorSignatures", () => {
  it("takes a reading command's own complaints and the shell's as errors, not the content it printed", () => {
    const output = "Error: a line of the file\ngrep: src/missing.ts: No such file or directory\n/bin/bash: line 1: cd: /nowhere: No such file or directory";
    expect(ownErrorSignatures(output, "grep")).toEqual(["grep: src/missing.ts: No such file or directory", "/bin/bash: line 1: cd: /nowhere: No such file or directory"]);
    expect(ownErrorSignatures("Error: a line of the file\nTypeError: x is undefined", "cat")).toEqual([]);
  });
});

describe("hintedLines", () => {
  it("finds exactly the lines a line-by-line hint test finds, in order", () => {
    const pieces = ["error", "ERROR", "FAIL", "npm", "make", "a.go:1", "x:1:2", "(3,4)", "✕", "×", "●", "Errno ", "failed: ", "ok", " ", "\n", "\n", "\r\n", "漢", "plain text"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(hintedLines(text)).toEqual(text.split("\n").filter(hasErrorHint));
      }),
      { numRuns: 500 },
    );
  });
});
