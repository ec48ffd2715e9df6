/** Conversation builders for the compressor tests (synthetic, deterministic). */
import type { ChatMessage } from "../../src/messages/schema.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";

/** The rough estimator (chars / 4): predictable counts for boundary tests. */
export const roughCounter = new RoughTokenCounter();

let callSeq = 0;

/** An assistant message issuing one call. */
export function call(name: string, args: Record<string, unknown>, id = `call_${++callSeq}`): ChatMessage {
  return { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] };
}

/** The result of `assistant`'s first call. */
export function result(assistant: ChatMessage, content: string): ChatMessage {
  const id = assistant.tool_calls?.[0]?.id ?? "missing";
  return { role: "tool", tool_call_id: id, content };
}

/** An assistant call and its result, as a pair. */
export function toolTurn(name: string, args: Record<string, unknown>, output: string): [ChatMessage, ChatMessage] {
  const a = call(name, args);
  return [a, result(a, output)];
}

/** `lines` lines of plausible tool output mentioning `topic`, about `lineChars` characters each. */
export function longOutput(topic: string, lines: number, lineChars = 80): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const line = `${topic} line ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}`;
    out.push(line.slice(0, lineChars));
  }
  return out.join("\n");
}

export const user = (content: string): ChatMessage => ({ role: "user", content });
export const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
export const system = (content: string): ChatMessage => ({ role: "system", content });

export const FASTAPI_SYSTEM = "You are a coding agent. Use the tools to read and change files and run commands.";

/**
 * The FastAPI example of the compression algorithm: 45 messages, about 95k tokens. [38] pytest call, [39] "8 passed, 2 failed" (5 KB),
 * [40] "Fix the failing tests", [41] read_file, [42] its output (3 KB), [43] assistant, [44] the new ask.
 */
export function fastApiConversation(): ChatMessage[] {
  const m: ChatMessage[] = [system(FASTAPI_SYSTEM), user("Help me set up a FastAPI project")];
  m.push(...toolTurn("terminal", { command: "mkdir -p app tests && python -m venv .venv" }, "created app/ tests/ .venv/ — exit code: 0"));
  m.push(...toolTurn("write_file", { path: "app/main.py", content: "from fastapi import FastAPI\napp = FastAPI()\n" }, longOutput("wrote app/main.py", 300)));
  const files = ["app/routes.py", "app/schemas.py", "tests/test_api.py", "app/config.py", "pyproject.toml", "app/deps.py"];
  for (const path of files) m.push(...toolTurn("read_file", { path }, longOutput(path, 300)));
  m.push(assistant("The API skeleton is ready: app/main.py serves on port 8000 with uvicorn."));
  m.push(user("Now add a SQLite database with SQLAlchemy, and keep using pytest for tests"));
  const steps = ["pip install sqlalchemy==2.0.36", "alembic init migrations", "python -m app.seed", "ruff check app", "pytest -x tests/test_models.py", "uvicorn app.main:app --port 8000", "git diff --stat", "pytest tests/test_db.py"];
  for (const command of steps) m.push(...toolTurn("terminal", { command }, `${longOutput(command, 300)}\nexit code: 0`));
  m.push(assistant("Models and the database session are added in app/models.py and app/db.py."));
  m.push(user("Run the tests"));
  const pytest = call("terminal", { command: "pytest" });
  m.push(pytest, result(pytest, `8 passed, 2 failed\n${longOutput("FAILED tests/test_api.py::test_create_item", 62)}\nexit code: 1`));
  m.push(user("Fix the failing tests"));
  const read = call("read_file", { path: "tests/test_api.py" });
  m.push(read, result(read, longOutput("tests/test_api.py", 38)));
  m.push(assistant("I see the issue with the test fixtures: the client fixture does not override get_db."));
  m.push(user("Great, also add error handling"));
  return m;
}

/** A simple conversation of `rounds` user asks, each answered with one tool turn and a text reply. */
export function agentRounds(rounds: number, outputChars = 2_000, label = "round"): ChatMessage[] {
  const m: ChatMessage[] = [];
  for (let r = 0; r < rounds; r++) {
    m.push(user(`${label} ${r}: please check file src/${label}_${r}.ts`));
    m.push(...toolTurn("read_file", { path: `src/${label}_${r}.ts` }, longOutput(`src/${label}_${r}.ts`, Math.ceil(outputChars / 80))));
    m.push(assistant(`Checked src/${label}_${r}.ts — it looks fine.`));
  }
  return m;
}
