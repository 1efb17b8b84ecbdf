// The shape of a conformance result, and checks on it. Kept apart from
// conformance.ts so that build/cross_runtime.ts can use it without loading
// the library itself.
import type { EngineName, JsonErrorCode } from "../../src/engine/mod.ts";

const ERROR_CODE_SET: Record<JsonErrorCode, true> = {
  expecting_value: true,
  expecting_property_name: true,
  expecting_colon: true,
  expecting_comma: true,
  extra_data: true,
  unterminated_string: true,
  invalid_control_character: true,
  invalid_escape: true,
  invalid_unicode_escape: true,
  integer_too_long: true,
  nesting_too_deep: true,
  mismatched_bracket: true,
  unclosed_span: true,
};

/** Every error code; the corpus must produce each one somewhere. */
export const ERROR_CODES: readonly JsonErrorCode[] = Object.keys(
  ERROR_CODE_SET,
) as JsonErrorCode[];

/** The error codes that no API produced in a report, if any: a sign the corpus lost coverage. */
export function missingErrorCodes(report: ConformanceReport): JsonErrorCode[] {
  const seen = new Set<string>();
  for (const counts of Object.values(report.counts)) {
    for (const key of Object.keys(counts)) {
      if (key.startsWith("error:")) seen.add(key.slice(6));
    }
  }
  return ERROR_CODES.filter((c) => !seen.has(c));
}

/** What one conformance run found. */
export interface ConformanceReport {
  /** The runtime, e.g. `deno`, `node`, `bun`, `workerd`. */
  runtime: string;
  /** The runtime's version, where it tells. */
  runtimeVersion: string;
  /** The engine asked for. */
  requested: "auto" | EngineName;
  /** The engine that ran. */
  engine: string;
  /** Why `auto` fell back to `ts`, when it did. */
  fallbackReason?: string;
  /** The corpus PRNG and seed. */
  corpus: { prng: string; seed: number; outputs: number; documents: number };
  /** Result counts per API: statuses, and error codes as `error:<code>`. */
  counts: Record<string, Record<string, number>>;
  /** scoreJsonl over the seeded JSONL inputs: the report bytes' digest and size. */
  scoreJsonl: ScoreJsonlRun;
  /** SHA-256 of each section's serialized results. */
  sections: Record<string, string>;
  /** SHA-256 over all sections: equal digests mean identical results. */
  sha256: string;
}

/** What scoreJsonl gave on one engine over the seeded JSONL inputs. */
export interface ScoreJsonlRun {
  /** The report's `engine` field. */
  engine: string;
  /** SHA-256 of the report's exact bytes (what `assay score --out` writes). */
  sha256: string;
  /** Their length. */
  bytes: number;
  /** Examples scored. */
  n: number;
  /** Set when the scoring kernel gave the run back to the general reader: where and why. */
  handedBack?: string;
}

/** A run that could not start, e.g. `wasm` asked for where it cannot be instantiated. */
export interface ConformanceFailure {
  /** The runtime. */
  runtime: string;
  /** The runtime's version. */
  runtimeVersion: string;
  /** The engine asked for. */
  requested: "auto" | EngineName;
  /** Why it failed. */
  error: string;
}
