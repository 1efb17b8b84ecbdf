// The checks of the scorer's rows: ids and digests, and why a target that is not one call is
// dropped (docs/evaluation.md, "Targets and the drop summary").
import { jsonKind, materialize } from "../engine/mod.ts";
import { inputErrorAt, type Location, type Violation } from "../jsonl/mod.ts";
import type { DropSummary } from "./inputs.ts";

/**
 * The slice of all examples: reports, comparisons, the HTML page and gate rules name it
 * `overall` beside the languages (docs/contract.md §5), so no language may take its name.
 */
export const OVERALL = "overall";
/** What a refusal says of a language field that is {@linkcode OVERALL}. */
export const IS_OVERALL = ` is "${OVERALL}", the name of the slice of all examples`;

/** Whether `value` is a string that is not empty. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** Whether `value` is 64 lowercase hex digits. */
export function isDigest(value: unknown): value is string {
  if (typeof value !== "string" || value.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x30 || c > 0x39) && (c < 0x61 || c > 0x66)) return false;
  }
  return true;
}

export function requireString(
  value: unknown,
  field: string,
  at: Location,
) {
  if (value === undefined) throw inputErrorAt(at, `missing field "${field}"`);
  if (!isNonEmptyString(value)) {
    throw inputErrorAt(at, `field "${field}" must be a non-empty string`);
  }
}

/**
 * Why a generation's `output` that is present is refused: it is not a string. An object or an
 * array is refused in memory only (scoreJsonl reads one from its line exactly, as canonical text;
 * parsed by JavaScript, it has lost `1.0` from `1`), and the message says where it goes; read
 * from a line (`jsonl`), the message names them among the kinds an output may be.
 */
export function outputNotString(value: unknown, jsonl = false): string {
  const kind = jsonKind(value);
  if (jsonl) return `field "output" must be a string, an object or an array, got ${kind}`;
  const hint = kind === "an object" || kind === "an array"
    ? ": give a JSON message as its JSON text, which keeps its numbers exact"
    : "";
  return `field "output" must be a string, got ${kind}${hint}`;
}

export function requireDigest(value: unknown, at: Location) {
  if (value === undefined) {
    throw inputErrorAt(
      at,
      'missing field "prompt_sha256" (the SHA-256 of the prompt\'s UTF-8 text, 64 lowercase ' +
        "hex digits)",
    );
  }
  if (!isDigest(value)) {
    throw inputErrorAt(at, 'field "prompt_sha256" must be 64 lowercase hex digits');
  }
}

/** Whether a materialised value has the call shape of CONTRACT §1. */
export function isCallShape(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 2 || !keys.includes("name") || !keys.includes("arguments")) return false;
  const { name, arguments: args } = v as { name: unknown; arguments: unknown };
  return typeof name === "string" && name !== "" && typeof args === "object" && args !== null &&
    !Array.isArray(args);
}

/**
 * Classifies a canonical target that is not exactly one call: a list of two or more calls, an
 * empty list, or anything else (including a list holding something that is not a call).
 */
export function dropReason(canonical: string): keyof DropSummary {
  const value = materialize(canonical);
  if (!Array.isArray(value)) return "malformed_target";
  if (value.length === 0) return "empty_target";
  return value.length >= 2 && value.every(isCallShape) ? "multiple_calls" : "malformed_target";
}

/**
 * The violation of an id given twice in one file, at lines `first` and `then` when they are known
 * (rows given in memory have none).
 */
export function duplicateId(id: string, source: string, first?: number, then?: number): Violation {
  return {
    kind: "duplicate_id",
    detail: `example_id ${JSON.stringify(id)} in ${source} ${
      then ? `at lines ${first} and ${then}` : "twice"
    }`,
  };
}
