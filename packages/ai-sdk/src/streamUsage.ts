/** The usage a language model's stream reports, read as the stream passes (a middleware's `wrapStream`). */
import type { ProviderMiddleware } from "./aiTypes.js";

/** The stream of a language model's streamed call (`LanguageModelV3StreamResult["stream"]`). */
export type LanguageModelStream = Awaited<ReturnType<NonNullable<ProviderMiddleware["wrapStream"]>>>["stream"];

/** The usage of a stream's `finish` part. */
type StreamFinishUsage = Extract<LanguageModelStream extends ReadableStream<infer P> ? P : never, { type: "finish" }>["usage"];

/** `stream` unchanged, `onUsage` called with the usage of its `finish` part as that part passes. */
export function reportingStreamUsage(stream: LanguageModelStream, onUsage: (usage: StreamFinishUsage) => void): LanguageModelStream {
  return stream.pipeThrough(
    new TransformStream({
      transform(part, controller) {
        if (part.type === "finish") onUsage(part.usage);
        controller.enqueue(part);
      },
    }),
  );
}
