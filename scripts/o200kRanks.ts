/**
 * `tsx scripts/o200kRanks.ts`: writes packages/core/data/o200k_base.ranks, the compact form of the
 * o200k_base vocabulary that the exact token counter loads (see packages/core/src/tokens/o200kRanks.ts
 * for the layout), from gpt-tokenizer's data (OpenAI's tiktoken vocabulary; the licences ship beside it in
 * data/o200k_base.LICENSE.md). `--check` only compares the file with what it would write
 * (exit 1 when they differ).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { encodeO200kRanks, O200K_RANKS_URL } from "../packages/core/src/tokens/o200kRanks.js";

const require = createRequire(new URL("../packages/core/package.json", import.meta.url));
const vocabulary = (require("gpt-tokenizer/bpeRanks/o200k_base") as { default: (string | number[])[] }).default;
const tokens = vocabulary.map((token) => (typeof token === "string" ? Buffer.from(token, "utf8") : Buffer.from(token)));
const encoded = encodeO200kRanks(tokens);
if (process.argv.includes("--check")) {
  const same = Buffer.compare(readFileSync(O200K_RANKS_URL), encoded) === 0;
  console.log(same ? "o200k_base.ranks is up to date" : "o200k_base.ranks differs from gpt-tokenizer's vocabulary: run tsx scripts/o200kRanks.ts");
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(O200K_RANKS_URL, encoded);
  console.log(`wrote ${O200K_RANKS_URL.pathname}: ${tokens.length} tokens, ${encoded.length} bytes`);
}
