/** A small engine for the framework adapters' unit tests: it keeps the last message, offers `echo` and records the session ids it is given. */
import { AWAITING_REAL_USAGE, ContextEngine, type ChatMessage, type CompressOptions, type ToolSchema, type UsageReport } from "@context-engine/core";

/** Compresses to the last message at 100 prompt tokens; its `echo` tool answers `{"echoed": args}`. */
export class RecordingEngine extends ContextEngine {
  readonly name = "recording";
  override thresholdTokens = 100;
  /** The session id of every shouldCompress, compress and updateFromResponse call, in order. */
  readonly sessions: (string | undefined)[] = [];

  shouldCompress(promptTokens = this.lastPromptTokens, sessionId?: string): boolean {
    this.sessions.push(sessionId);
    return promptTokens >= this.thresholdTokens;
  }

  async compress(messages: ChatMessage[], options: CompressOptions = {}): Promise<ChatMessage[]> {
    this.sessions.push(options.sessionId);
    this.compressionCount++;
    this.lastPromptTokens = AWAITING_REAL_USAGE;
    return messages.slice(-1);
  }

  override updateFromResponse(usage: UsageReport, sessionId?: string): void {
    this.sessions.push(sessionId);
    super.updateFromResponse(usage, sessionId);
  }

  override getToolSchemas(): ToolSchema[] {
    return [{ type: "function", function: { name: "echo", description: "Echo the input", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } } }];
  }

  override async handleToolCall(name: string, args: unknown): Promise<string> {
    return name === "echo" ? JSON.stringify({ echoed: args }) : super.handleToolCall(name, args);
  }
}
