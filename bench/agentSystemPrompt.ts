/**
 * A coding agent's system prompt of realistic size for the benches: about 5,000 tokens of instructions
 * and 11,000 of tool definitions (Claude Code's own request opens with some 15–18k tokens of both), made
 * up here, deterministic. The corpus transcripts carry no system prompt or a short one, so a bench that
 * weighs what a request re-sends (the cache a summary reads) measures with this one too. The replay's
 * cache model keys on messages, so the tool definitions go into the system message, as JSON, after the
 * instructions; a provider caches them the same way, first in the prefix.
 */
import type { ChatMessage, ToolSchema } from "@context-engine/core";

const TOPICS = ["reading files", "editing files", "running commands", "tests", "git", "dependencies", "security", "style", "planning", "asking the user", "reporting", "long outputs", "background tasks", "web requests", "notebooks", "refactoring"];
const VERBS = ["prefer", "avoid", "always check", "never skip", "keep", "explain", "verify", "limit", "batch", "document"];
const OBJECTS = ["the smallest change that fixes the issue", "absolute paths in tool calls", "the project's existing conventions", "a failing test before the fix", "the exact command and its exit status", "secrets in logs and commits", "interactive commands that wait for input", "edits to generated files", "the user's stated constraints", "unrelated cleanups in the same change", "a summary of what changed and why", "output longer than a screen"];

/** `count` instruction lines about `topic`, each a rule and its reason. */
function rules(topic: string, count: number, seed: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const verb = VERBS[(seed + i * 3) % VERBS.length]!;
    const object = OBJECTS[(seed * 7 + i) % OBJECTS.length]!;
    return `- When ${topic}, ${verb} ${object}; rule ${seed}.${i + 1} exists because a previous session lost work when it was ignored, so state it in your reply when you depart from it.`;
  });
}

/** The tool definitions: fifteen tools with long descriptions and parameter schemas, as agent harnesses ship them. */
export function agentTools(): ToolSchema[] {
  const names = ["bash", "read_file", "write_file", "edit_file", "multi_edit", "glob", "grep", "list_dir", "web_fetch", "web_search", "todo_write", "task", "notebook_edit", "exit_plan_mode", "kill_shell"];
  return names.map((name, n) => ({
    type: "function",
    function: {
      name,
      description: [`Use ${name} for ${TOPICS[n % TOPICS.length]}.`, ...rules(`using ${name}`, 7, n + 1), "Usage notes:", ...rules(`calling ${name} in parallel`, 2, n + 40)].join("\n"),
      parameters: {
        type: "object",
        properties: Object.fromEntries(
          ["path", "command", "pattern", "content", "timeout", "description"].slice(0, 3 + (n % 4)).map((p) => [p, { type: p === "timeout" ? "number" : "string", description: `The ${p} for ${name}: ${rules(`setting ${p}`, 1, n + 80)[0]!.slice(2)}` }]),
        ),
        required: ["path"],
      },
    },
  }));
}

/** The agent's instructions: sections of rules per topic. */
function instructions(): string {
  const sections = TOPICS.map((topic, n) => [`# ${topic[0]!.toUpperCase()}${topic.slice(1)}`, ...rules(topic, 7, n + 100)].join("\n"));
  return ["You are an interactive coding agent. Use the tools available to help the user with software engineering tasks.", ...sections].join("\n\n");
}

/** The system message: the instructions, then the tool definitions as JSON. */
export function agentSystemPrompt(): string {
  return `${instructions()}\n\n<tools>\n${JSON.stringify(agentTools(), null, 1)}\n</tools>`;
}

/** `messages` as sent with {@link agentSystemPrompt}: before the transcript's own system prompt, if it has one. */
export function withAgentSystemPrompt(messages: readonly ChatMessage[], prompt: string): ChatMessage[] {
  const first = messages[0];
  if (first?.role === "system" && typeof first.content === "string") return [{ ...first, content: `${prompt}\n\n${first.content}` }, ...messages.slice(1)];
  return [{ role: "system", content: prompt }, ...messages];
}
