/** The LangChain test kit: any engine, by name, path or instance, in a real createAgent agent with a scripted model. */
import { describe } from "vitest";
import { runLangChainAgent } from "@context-engine/langchain/testing";
import { loopKitCases } from "../../../test/support/loopKitCases.js";

describe("runLangChainAgent", () => {
  loopKitCases(runLangChainAgent);
});
