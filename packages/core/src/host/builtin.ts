/** The name that always means the built-in ContextCompressor. */
export const BUILTIN_ENGINE = "compressor";
