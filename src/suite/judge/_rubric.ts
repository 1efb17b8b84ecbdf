// The rubric guard: the cache key of a judge call, and the check that scores of one metric share
// one rubric hash before they are pooled or compared.

/**
 * The cache key of a judge call: the prompt hash and the judge model string, joined by `:`
 * (hex has no colon, so the key splits back unambiguously at its first `:`).
 *
 * @param promptSha256 The rendered prompt's hash.
 * @param model The judge model string, as in `judge_model`.
 * @returns The key.
 * @throws {TypeError} If `promptSha256` is not 64 lowercase hex digits or `model` is empty.
 *
 * @example
 * ```ts
 * import { judgeCacheKey } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(judgeCacheKey("0".repeat(64), "openai:gpt-5"), "0".repeat(64) + ":openai:gpt-5");
 * ```
 */
export function judgeCacheKey(promptSha256: string, model: string): string {
  if (typeof promptSha256 !== "string" || !/^[0-9a-f]{64}$/.test(promptSha256)) {
    throw new TypeError("The prompt hash must be 64 lowercase hex digits");
  }
  if (typeof model !== "string" || model === "") {
    throw new TypeError("The judge model must be a non-empty string");
  }
  return `${promptSha256}:${model}`;
}

/** Scores of one metric were made under different rubrics, so they must not be compared. */
export class RubricMismatchError extends Error {
  /** The metric's name. */
  readonly metric: string;
  /** The rubric hash seen first. */
  readonly expected: string;
  /** The different rubric hash seen later. */
  readonly found: string;

  /**
   * Creates the error.
   *
   * @param metric The metric's name.
   * @param expected The rubric hash seen first.
   * @param found The different one.
   */
  constructor(metric: string, expected: string, found: string) {
    super(
      `Metric ${JSON.stringify(metric)} was scored under two rubrics ` +
        `(rubric_sha256 ${expected} and ${found}): rescore so that both sides share one rubric`,
    );
    this.name = "RubricMismatchError";
    this.metric = metric;
    this.expected = expected;
    this.found = found;
  }
}

/**
 * Checks that scores share one rubric hash per metric; aggregation and comparison call it before
 * pooling judge scores. Entries without a `rubric_sha256` (deterministic metrics) are ignored.
 *
 * @param scores Scores with their metric name (e.g. {@linkcode JudgeScore}s of both arms).
 * @throws {RubricMismatchError} At the first metric with a second rubric hash.
 *
 * @example A changed rubric is refused
 * ```ts
 * import { assertSameRubric, RubricMismatchError } from "@assay/assay/suite";
 * import { throws } from "node:assert/strict";
 *
 * assertSameRubric([{ metric: "m", rubric_sha256: "a" }, { metric: "n", rubric_sha256: "b" }]);
 * throws(
 *   () => assertSameRubric([{ metric: "m", rubric_sha256: "a" }, { metric: "m", rubric_sha256: "b" }]),
 *   RubricMismatchError,
 * );
 * ```
 */
export function assertSameRubric(
  scores: Iterable<{ metric: string; rubric_sha256?: string | undefined }>,
): void {
  const seen = new Map<string, string>();
  for (const s of scores) {
    if (s === null || typeof s !== "object") throw new TypeError("Each score must be an object");
    if (s.rubric_sha256 === undefined) continue;
    const first = seen.get(s.metric);
    if (first === undefined) seen.set(s.metric, s.rubric_sha256);
    else if (first !== s.rubric_sha256) {
      throw new RubricMismatchError(s.metric, first, s.rubric_sha256);
    }
  }
}
