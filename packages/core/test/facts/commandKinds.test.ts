import { describe, expect, it } from "vitest";
import { answerOfExit, isReadOnlyCommand, scriptSteps } from "../../src/facts/commandKinds.js";

describe("what a shell command does", () => {
  it("reads a command that only looks as read-only, scene-setting steps and plumbing included", () => {
    for (const command of [
      "cat src/app.py",
      "cd /repo && rg -n 'def main' src -S | head -20",
      "sed -n '1,80p' src/app.py",
      "git status && git diff --stat",
      "git stash list && git branch",
      "ls -la tests/ 2>&1",
      "grep -rn TODO src > /dev/null; echo $?",
      'sqlite3 app.db "SELECT COUNT(*) FROM users"',
      "[ -f setup.py ] && echo yes",
    ]) expect(isReadOnlyCommand(command), command).toBe(true);
  });

  it("reads a command that writes, builds, tests, installs, moves, deletes, commits or lints as acting", () => {
    for (const command of [
      "npm run build",
      "cd /repo && pytest -q tests/test_api.py 2>&1 | tail -30",
      "pip install -e .",
      "mv src/old.py src/new.py",
      "rm -rf dist",
      "git commit -m 'Fix the parser'",
      "git push origin main",
      "git stash pop",
      "git branch -D old-feature",
      "npx eslint src --fix",
      "cat > src/config.json <<'EOF'\n{}\nEOF",
      "echo 'x = 1' >> src/settings.py",
      "sed -i 's/foo/bar/' src/app.py",
      "find . -name '*.pyc' -delete",
      "python reproduce.py",
    ]) expect(isReadOnlyCommand(command), command).toBe(false);
  });

  it("splits a script into steps and pipelines outside quotes", () => {
    const steps = scriptSteps(`cd /w && grep -n "a && b | c" x.py | head -5; echo done`);
    expect(steps.map((step) => step.map((segment) => segment.words.join(" ")))).toEqual([["cd /w"], ["grep -n a && b | c x.py", "head -5"], ["echo done"]]);
  });

  it("reads exit 1 of a search, a test or a comparison as its answer, not a failure", () => {
    expect(answerOfExit('rg -n "parseConfig" tests -S', 1)).toBe("no match");
    expect(answerOfExit("cd /repo && grep -rn 'TODO' src | head -20", 1)).toBe("no match");
    expect(answerOfExit("git grep -n retry_after", 1)).toBe("no match");
    expect(answerOfExit("command -v cargo", 1)).toBe("no match");
    expect(answerOfExit('grep -q "retry" src/client.py && echo "found"', 1)).toBe("no match");
    expect(answerOfExit("test -f build/out.js", 1)).toBe("false");
    expect(answerOfExit("[ -d node_modules ]", 1)).toBe("false");
    expect(answerOfExit("diff expected.txt actual.txt", 1)).toBe("differ");
    expect(answerOfExit("git diff --exit-code", 1)).toBe("differ");
  });

  it("leaves any other exit, and ls of a missing path, a failure", () => {
    expect(answerOfExit("rg -n foo missing/", 2)).toBeUndefined();
    expect(answerOfExit("rg -n foo src", 0)).toBeUndefined();
    expect(answerOfExit("ls src/missing", 1)).toBeUndefined();
    expect(answerOfExit("pytest -q", 1)).toBeUndefined();
    expect(answerOfExit("grep -q foo a.txt && make", 1)).toBeUndefined();
    expect(answerOfExit("git diff", 1)).toBeUndefined();
  });
});
