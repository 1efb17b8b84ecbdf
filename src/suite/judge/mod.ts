/**
 * The `llm_judge` metric: rubrics, prompts and their hashes, the providers' wire formats, retries
 * and the judge instance.
 *
 * @module
 */
export * from "./judge.ts";
