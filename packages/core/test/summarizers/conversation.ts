/** A realistic little coding conversation shared by the summarizer tests: failing pytest, edited files. */
import type { ChatMessage } from "../../src/messages/schema.js";

function call(id: string, name: string, args: Record<string, unknown>) {
  return { id, type: "function" as const, function: { name, arguments: JSON.stringify(args) } };
}

/** System prompt, a FastAPI task, a failing test run, a fix, a passing run, a new request. */
export const FASTAPI_CONVERSATION: ChatMessage[] = [
  { role: "system", content: "You are a coding assistant." },
  { role: "user", content: "Help me set up a FastAPI project with a /items endpoint. Please use pytest for tests and never commit to main." },
  {
    role: "assistant",
    content: "I'll create the app in src/app/main.py. I decided to use SQLite because it needs no server.",
    tool_calls: [call("call_1", "write_file", { path: "src/app/main.py", content: "from fastapi import FastAPI\napp = FastAPI()\n" })],
  },
  { role: "tool", tool_call_id: "call_1", content: "Wrote 2 lines to src/app/main.py" },
  { role: "assistant", content: "Now running the tests.", tool_calls: [call("call_2", "terminal", { command: "pytest -q" })] },
  {
    role: "tool",
    tool_call_id: "call_2",
    content: [
      "..F",
      "FAILED tests/test_api.py::test_create_item - AssertionError: expected 201, got 422",
      "E   AssertionError: expected 201, got 422",
      "2 passed, 1 failed in 0.41s",
      "Exit code: 1",
    ].join("\n"),
  },
  { role: "user", content: "Fix the failing tests. The server must listen on port 8000." },
  {
    role: "assistant",
    content: "The request model is missing a field.",
    tool_calls: [call("call_3", "read_file", { path: "tests/test_api.py" })],
  },
  { role: "tool", tool_call_id: "call_3", content: "def test_create_item(client):\n    r = client.post('/items', json={'name': 'x', 'price': 1})\n    assert r.status_code == 201\n" },
  {
    role: "assistant",
    content: "",
    tool_calls: [call("call_4", "edit_file", { file_path: "src/app/models.py", old: "name: str", new: "name: str\n    price: float" })],
  },
  { role: "tool", tool_call_id: "call_4", content: "Edited src/app/models.py" },
  { role: "assistant", content: "", tool_calls: [call("call_5", "terminal", { command: "pytest -q" })] },
  { role: "tool", tool_call_id: "call_5", content: "...\n3 passed in 0.38s\nExit code: 0" },
  { role: "user", content: "Great, also add error handling for missing items; use fastapi 0.110.0 and run it at http://localhost:8000/docs" },
  { role: "assistant", content: "I will add a 404 handler in src/app/main.py next." },
];
