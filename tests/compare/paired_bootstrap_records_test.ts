// pairedBootstrap() refuses the records a report would be refused for (recordProblem, the check
// compareReports reads reports with) before it packs their counts into an Int32Array: a fraction
// was truncated (0.9 → 0), a count of 2^32 or more wrapped (2^32 + 1 → 1), more matched pairs
// than predicted or gold pairs gave an F1 of 5, and 2^31 was refused naming a wrapped value.
import { deepStrictEqual, throws } from "node:assert/strict";
import {
  compareReports,
  type ExampleRecord,
  packRecords,
  pairedBootstrap,
  RECORD_STATUSES,
  scoreToolCalls,
} from "../../mod.ts";

const rec = (m: unknown, p: unknown, g: unknown, id = "x"): ExampleRecord => ({
  example_id: id,
  language: "en",
  root_id: null,
  status: "ok",
  name_match: true,
  arguments_match: false,
  matched_pairs: m as number,
  predicted_pairs: p as number,
  gold_pairs: g as number,
});

const good = [rec(1, 2, 2, "a"), rec(0, 1, 1, "b")];

Deno.test("pairedBootstrap: a bad count is a RangeError naming arm, index, id, field and value", () => {
  const cases: [ExampleRecord, string][] = [
    [rec(0.9, 0.9, 0.9), ".matched_pairs is not a count below 2^31, got 0.9"],
    [
      rec(1, 2 ** 32 + 1, 2 ** 32 + 1),
      ".predicted_pairs is not a count below 2^31, got 4294967297",
    ],
    [rec(5, 1, 1), ".matched_pairs is more than predicted_pairs or gold_pairs, got 5"],
    [rec(1, 2, 1.5), ".gold_pairs is not a count below 2^31, got 1.5"],
    [rec(1, 2 ** 31, 1), ".predicted_pairs is not a count below 2^31, got 2147483648"],
    [rec(-1, 1, 1), ".matched_pairs is not a count below 2^31, got -1"],
    [rec("1", 1, 1), '.matched_pairs is not a count below 2^31, got "1"'],
    [rec(1, 1, undefined), ".gold_pairs is not a count below 2^31, got undefined"],
    [rec(NaN, 1, 1), ".matched_pairs is not a count below 2^31, got NaN"],
    [rec(1, Infinity, 1), ".predicted_pairs is not a count below 2^31, got Infinity"],
  ];
  for (const [bad, problem] of cases) {
    const withBad = [good[0]!, { ...bad, example_id: "q7" }];
    throws(() => pairedBootstrap(withBad, good, { resamples: 10 }), {
      name: "RangeError",
      message: `base[1] (example_id "q7")${problem}`,
    });
    throws(() => pairedBootstrap(good, withBad, { resamples: 10 }), {
      name: "RangeError",
      message: `adapter[1] (example_id "q7")${problem}`,
    });
  }
});

Deno.test("pairedBootstrap: a record that is not an object is named with its value", () => {
  for (const [bad, got] of [[5, "5"], [null, "null"], ["r", '"r"'], [undefined, "undefined"]]) {
    throws(() => pairedBootstrap([good[0]!, bad as never], good, { resamples: 10 }), {
      name: "RangeError",
      message: `base[1] (example_id undefined) is not an object, got ${got}`,
    });
  }
});

Deno.test("pairedBootstrap: a status the metrics do not know is refused, every record status is read", () => {
  // "OK" or "valid" from a user's own pipeline counted as a parse failure in silence.
  for (const status of ["OK", "valid", "", "ok "]) {
    const bad = { ...good[1]!, status } as unknown as ExampleRecord;
    throws(() => pairedBootstrap(good, [good[0]!, bad], { resamples: 10 }), {
      name: "RangeError",
      message: `adapter[1] (example_id "b").status is unknown, got ${JSON.stringify(status)}`,
    });
  }
  for (const status of RECORD_STATUSES) {
    const r = pairedBootstrap(good, [good[0]!, { ...good[1]!, status }], { resamples: 10 });
    deepStrictEqual(r.valid_json_rate.adapter.numerator, status === "ok" ? 2 : 1);
  }
});

Deno.test("pairedBootstrap refuses what compareReports refuses in a report, by the same check", () => {
  const report = scoreToolCalls(
    [{ example_id: "a", language: "en", target: { name: "f", arguments: { x: 1 } } }],
    [{ example_id: "a", output: '{"name": "f", "arguments": {"x": 1}}' }],
  );
  const bad = { ...report.records[0]!, matched_pairs: 5 };
  const malformed = { ...report, records: [bad] };
  throws(
    () => compareReports(malformed, report),
    /records\[0\]\.matched_pairs is more than predicted_pairs or gold_pairs/,
  );
  throws(
    () => pairedBootstrap([bad], report.records),
    /^RangeError: base\[0\] \(example_id "a"\)\.matched_pairs is more than predicted_pairs/,
  );
});

Deno.test("pairedBootstrap: good records at the edge of the range are still scored", () => {
  const big = 2 ** 31 - 1;
  const r = pairedBootstrap([rec(big, big, big)], [rec(0, big, big)], { resamples: 10 });
  deepStrictEqual(r.argument_f1.base, { value: 1, numerator: 2 * big, denominator: 2 * big });
  deepStrictEqual(r.argument_f1.adapter, { value: 0, numerator: 0, denominator: 2 * big });
  deepStrictEqual(r.argument_f1.ci, [-1, -1]);
});

Deno.test("packRecords refuses a pair count it would cut or wrap, naming the record and field", () => {
  for (
    const [bad, field] of [
      [rec(0.9, 1, 1), "matched_pairs"],
      [rec(1, 2 ** 32 + 1, 1), "predicted_pairs"],
      [rec(1, 1, 2 ** 31), "gold_pairs"],
      [rec(-1, 1, 1), "matched_pairs"],
      [rec(1, NaN, 1), "predicted_pairs"],
    ] as const
  ) {
    throws(() => packRecords([good[0]!, bad]), {
      name: "RangeError",
      message: new RegExp(`^records\\[1\\]\\.${field} is not a count below 2\\^31, got `),
    });
  }
  deepStrictEqual(
    [...packRecords([rec(2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1)])],
    [1, 1, 0, 0, 2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1],
  );
});
