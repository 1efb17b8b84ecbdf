// BFCL's 2024-08 prompting models whose results are known, and the clean-up each one's handler
// applied to its text: the one copy, read by decoderForModel and by the check of a model's
// spelling.
import type { BfclDecoder } from "./decode.ts";

/** A prompting model's name as BFCL spells it, and its handler's decoder. */
export const PROMPTING_MODELS: Readonly<Record<string, BfclDecoder>> = {
  "claude-3-opus-20240229": "claude",
  "gorilla-openfunctions-v2": "gorilla",
  "gpt-4-0613": "gpt",
  "meta-llama/Meta-Llama-3-70B-Instruct": "llama",
  "mistral-large-2407": "mistral",
};
