/**
 * Reading a calibration's human labels, from the labels JSONL's bytes or text: each line a label
 * `human` in [0, 1] with the judge's score `judge`, or with the run it labels (`golden_id`, `arm`,
 * `repeat`) whose judge score a lookup gives. Every problem is a {@linkcode SuiteInputError} at
 * its line, as `assay calibrate` prints it.
 *
 * @module
 */
import { jsonArrayHint, quote } from "../jsonl/mod.ts";
import { type CalibrationPair, checkCalibrationScore } from "./calibration.ts";
import type { ReadInputOptions, SuiteInputText } from "./inputs.ts";
import { inputText, jsonLines, SuiteInputError } from "./_input_lines.ts";
import { isLabel, missingLabelField, PAIR_FIELDS } from "./_label_fields.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** A label's fields when it names its run, the judge's score looked up. */
const RUN_FIELDS = ["golden_id", "arm", "repeat", "human"];

/** The run a label is of. */
export interface LabelledRun {
  /** The golden's id. */
  golden_id: string;
  /** The arm. */
  arm: string;
  /** The repeat, an integer ≥ 0. */
  repeat: number;
}

/** Options of {@linkcode readCalibrationLabels}. */
export interface ReadLabelsOptions extends ReadInputOptions {
  /**
   * The judge's score of a labelled run. With it, each line names its run (`golden_id`, `arm`,
   * `repeat`) instead of giving `judge`, and each run is labelled once. It returns the score,
   * `null` when the judge gave none (the label is skipped and counted), or `undefined` when the
   * run has no score (an error at the label's line).
   */
  judgeScore?: (run: LabelledRun) => number | null | undefined;
  /** What the scores are, for the message of a run without one (default `judge`). */
  scoreName?: string;
  /** Where the scores are, for that message (default `the scores`). */
  scoresIn?: string;
}

/** A labels file read: the (judge, human) pairs, and the labels skipped for want of a score. */
export interface CalibrationLabels {
  /** One pair a label, in file order. */
  pairs: CalibrationPair[];
  /** Labels of runs the judge gave no score (`judgeScore` returned null). */
  skipped: number;
}

/** A JSON value's kind, for messages: null and array by name. */
function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/**
 * Reads a calibration's labels JSONL: each line an object with `human`, a label in [0, 1], and
 * either `judge`, the judge's score in [0, 1], or (with `judgeScore`) the run it labels, whose
 * score `judgeScore` gives. A byte order mark, `\r\n` line ends and blank lines are allowed.
 * The pairs go to {@linkcode calibrate} or {@linkcode calibrationReport}.
 *
 * @param input The file's bytes or text.
 * @param options `source`, the file's name in messages; `judgeScore`, to look the judge's
 * scores up by run.
 * @returns The pairs, and how many labels were skipped for want of a score.
 * @throws {SuiteInputError} At the first line that is not UTF-8 or JSON, repeats a key, is not
 * an object, lacks a field (named with a key that misspells it, where the line has one:
 * `missing field "human" (the label has "Human")`) or holds one of the wrong type or out of
 * range, labels a run a second time, or labels a run with no score. `calibrate` checks pairs
 * given in memory by the same rules.
 *
 * @example
 * ```ts
 * import { readCalibrationLabels } from "@assay/assay/suite";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const text = '{"human": 1, "judge": 0.9}\r\n{"human": 0, "judge": 0.2}\r\n';
 * deepStrictEqual(readCalibrationLabels(text, { source: "labels.jsonl" }), {
 *   pairs: [{ judge: 0.9, human: 1 }, { judge: 0.2, human: 0 }],
 *   skipped: 0,
 * });
 * const scores = new Map([['["g1","base",0]', 0.7]]);
 * const byRun = readCalibrationLabels('{"golden_id": "g1", "arm": "base", "repeat": 0, "human": 1}', {
 *   judgeScore: (r) => scores.get(JSON.stringify([r.golden_id, r.arm, r.repeat])),
 * });
 * deepStrictEqual(byRun.pairs, [{ judge: 0.7, human: 1 }]);
 * throws(() => readCalibrationLabels('{"human": 1}', { source: "labels.jsonl" }), {
 *   name: "SuiteInputError",
 *   message: 'labels.jsonl:1: missing field "judge"',
 * });
 * ```
 */
export function readCalibrationLabels(
  input: SuiteInputText,
  options: ReadLabelsOptions = {},
): CalibrationLabels {
  checkOptions(options);
  checkOptionNames("readCalibrationLabels", options, {
    source: 1,
    judgeScore: 1,
    scoreName: 1,
    scoresIn: 1,
  });
  const source = options.source ?? "<input>";
  const lookup = options.judgeScore;
  const pairs: CalibrationPair[] = [];
  let skipped = 0;
  const seen = new Map<string, number>();
  for (const { value, line, text } of jsonLines(inputText(input, source), source)) {
    const at = `${source}:${line}`;
    const fail = (message: string, cause?: unknown): never => {
      throw new SuiteInputError(`${at}: ${message}`, {
        source,
        line,
        ...(cause !== undefined && { cause }),
      });
    };
    if (!isLabel(value)) {
      fail(`expected a JSON object, got ${quote(text)}${jsonArrayHint(text, line)}`);
    }
    const row = value as Record<string, unknown>;
    const score = (v: unknown, name: string) => {
      try {
        return checkCalibrationScore(v, `"${name}"`);
      } catch (e) {
        if (e instanceof RangeError || e instanceof TypeError) return fail(e.message, e);
        throw e;
      }
    };
    // A run's key, or the judge's score: a field left out is named, not looked up as undefined.
    const missing = missingLabelField(row, lookup ? RUN_FIELDS : PAIR_FIELDS);
    if (missing !== undefined) fail(missing);
    const human = score(row.human, "human");
    let judge = row.judge;
    if (lookup) {
      for (const field of ["golden_id", "arm"]) {
        if (typeof row[field] !== "string") {
          fail(`"${field}" must be a string, got ${kindOf(row[field])}`);
        }
      }
      if (!Number.isInteger(row.repeat) || (row.repeat as number) < 0) {
        fail(`"repeat" must be an integer ≥ 0, got ${JSON.stringify(row.repeat)}`);
      }
      const run = row as unknown as LabelledRun;
      const key = JSON.stringify([run.golden_id, run.arm, run.repeat]);
      const first = seen.get(key);
      if (first !== undefined) {
        fail(
          `a second label for run ${key} (the first is on line ${first}): ` +
            "each run is labelled once",
        );
      }
      seen.set(key, line);
      const s = lookup({ golden_id: run.golden_id, arm: run.arm, repeat: run.repeat });
      if (s === undefined) {
        fail(
          `no ${options.scoreName ?? "judge"} score for run ${key} in ${
            options.scoresIn ?? "the scores"
          }`,
        );
      }
      if (s === null) {
        skipped++;
        continue;
      }
      judge = s;
    }
    pairs.push({ judge: score(judge, "judge"), human });
  }
  return { pairs, skipped };
}
