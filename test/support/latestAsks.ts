/** The latest asks the "latest ask stays last" properties try (docs/BEHAVIOUR.md, "The compression algorithm", Assemble). */
import type { ChatMessage } from "@context-engine/core";

/** A screenshot as an OpenAI image part. */
export const SCREENSHOT = { type: "image_url", image_url: { url: `data:image/png;base64,${"iVBORw0KGgo".repeat(40)}` } };

/** The latest ask's content: text, empty text, only an image, an image with an empty or a real text part, an empty text part. */
export const LATEST_ASKS: ChatMessage["content"][] = [
  "Now add error handling to src/app.py",
  "",
  [SCREENSHOT],
  [{ type: "text", text: "" }, SCREENSHOT],
  [SCREENSHOT, { type: "text", text: "What is wrong in this screenshot?" }],
  [{ type: "text", text: "" }],
];
