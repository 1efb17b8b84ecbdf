// compareReports, intersectReports and languageGaps find each slice's records in an index made in
// one pass, where they scanned every record for every slice (and languageGaps pooled the
// reference slice again for every target). The former code is kept here as the reference: on
// seeded random reports (slices with no records, records without or with unknown roots, ids
// shared in part), every delta, interval, gap and restricted report must be what it was, on both
// engines.
import { deepStrictEqual, ok } from "node:assert/strict";
import {
  bootstrapPacked,
  bootstrapSettings,
  compareCodePoints,
  compareReports,
  type EvaluationReport,
  type ExampleInput,
  type ExampleRecord,
  intersectReports,
  languageGaps,
  METRIC_NAMES,
  type MetricName,
  metricValue,
  packRecords,
  pairSetSha256,
  scoreToolCalls,
  Sfc32,
  toolCallMetrics,
} from "../../mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { ENGINES } from "../_engines.ts";

/** The former restriction of a report to the kept examples (a scan of the records per slice). */
function formerRestrict(r: EvaluationReport, keep: Set<string>): EvaluationReport {
  const records: ExampleRecord[] = r.records.filter((x) => keep.has(x.example_id));
  const slices = [...new Set(records.map((x) => x.language))].sort(compareCodePoints);
  const by_language = Object.fromEntries(
    slices.map((l) => [l, toolCallMetrics(records.filter((x) => x.language === l))]),
  );
  return { ...r, records, slices, metrics: { overall: toolCallMetrics(records), by_language } };
}

/** The former deltas of compareReports (after its gate): one scan of the records per slice. */
function formerDeltas(base: EvaluationReport, adapter: EvaluationReport, seed: number) {
  const position = new Map<string, number>();
  adapter.records.forEach((r, i) => position.set(r.example_id, i));
  const aligned = base.records.map((r) => adapter.records[position.get(r.example_id)!]!);
  const bp = packRecords(base.records);
  const ap = packRecords(aligned);
  const rng = new Sfc32(seed);
  const run = (idx: Int32Array) => bootstrapPacked(bp, idx, ap, idx, rng, RESAMPLES, 0.95);
  const overall = run(Int32Array.from(base.records, (_, i) => i));
  const by_language: Record<string, unknown> = {};
  for (const lang of [...base.slices].sort(compareCodePoints)) {
    const idx: number[] = [];
    base.records.forEach((r, i) => {
      if (r.language === lang) idx.push(i);
    });
    by_language[lang] = run(Int32Array.from(idx));
  }
  return { overall, by_language };
}

/** The former gaps (their `gaps` member): per target, a scan of every record. */
function formerGaps(report: EvaluationReport, reference: string, seed: number) {
  const settings = bootstrapSettings({ seed, resamples: RESAMPLES });
  const records = report.records;
  const packed = packRecords(records);
  const refIndex = new Map<string, number>();
  records.forEach((r, i) => {
    if (r.language === reference) refIndex.set(r.example_id, i);
  });
  const refRows = records.filter((r) => r.language === reference);
  const targets = [...report.slices].filter((s) => s !== reference).sort(compareCodePoints);
  const rng = new Sfc32(settings.seed);
  const gaps: Record<string, unknown> = {};
  for (const lang of targets) {
    const tIdx: number[] = [];
    const rIdx: number[] = [];
    const pairs: [string, string][] = [];
    let noRoot = 0;
    let missing = 0;
    const slice: ExampleRecord[] = [];
    records.forEach((r, i) => {
      if (r.language !== lang) return;
      slice.push(r);
      if (r.root_id === null || r.root_id === undefined) {
        noRoot++;
        return;
      }
      const root = refIndex.get(r.root_id);
      if (root === undefined) {
        missing++;
        return;
      }
      tIdx.push(i);
      rIdx.push(root);
      pairs.push([r.example_id, r.root_id]);
    });
    const paired = bootstrapPacked(
      packed,
      Int32Array.from(rIdx),
      packed,
      Int32Array.from(tIdx),
      rng,
      settings.resamples,
      settings.level,
    );
    const primaryMetrics: Record<string, unknown> = {};
    for (const m of METRIC_NAMES) {
      const d = paired[m];
      const some = pairs.length > 0;
      primaryMetrics[m] = {
        target: d.adapter,
        reference: d.base,
        delta: some ? d.delta : null,
        ci: some ? d.ci : null,
      };
    }
    const tm = toolCallMetrics(slice);
    const rm = toolCallMetrics(refRows);
    const marginal: Record<string, unknown> = {};
    for (const m of METRIC_NAMES as readonly MetricName[]) {
      marginal[m] = { target: tm[m], reference: rm[m], delta: tm[m].value - rm[m].value };
    }
    gaps[lang] = {
      primary: {
        n_pairs: pairs.length,
        coverage: metricValue(pairs.length, slice.length),
        unjoined: { no_root_id: noRoot, root_not_in_reference: missing },
        pair_set_sha256: pairSetSha256(pairs),
        metrics: primaryMetrics,
      },
      marginal_full_slices: {
        descriptive: true,
        n_target: slice.length,
        n_reference: refRows.length,
        metrics: marginal,
      },
    };
  }
  return gaps;
}

const RESAMPLES = 25;
const LANGUAGES = ["en", "de", "fr", "ja", "zz", "\u00e9", "en-GB", "EN"];

/** A seeded evaluation of `ids`, with outputs right, half right or no JSON at all. */
function evaluation(rng: Rng, examples: ExampleInput[], extraSlices: string[]): EvaluationReport {
  const generations = examples.map((e) => ({
    example_id: e.example_id,
    output: rng.pick([
      JSON.stringify({ name: "f", arguments: { a: 1, b: 2 } }),
      JSON.stringify({ name: "f", arguments: { a: 1, b: 3 } }),
      JSON.stringify({ name: "g", arguments: {} }),
      "no JSON",
    ]),
  }));
  const report = scoreToolCalls(examples, generations);
  // Slices may name languages no record has (an edited report): they must stay empty.
  return { ...report, slices: [...report.slices, ...extraSlices] };
}

/** The first third in `en`, the rest in any language, most of them rooted in the first third. */
function randomExamples(rng: Rng, n: number): ExampleInput[] {
  const ids = Array.from({ length: n }, (_, i) => `x${i}`);
  const roots = ids.slice(0, Math.ceil(n / 3));
  const languages = LANGUAGES.slice(0, 1 + rng.int(LANGUAGES.length));
  return ids.map((id, i) => ({
    example_id: id,
    language: i < roots.length ? "en" : rng.pick(languages),
    target: { name: "f", arguments: { a: 1, b: 2 } },
    ...(rng.chance(0.7)
      ? { root_id: rng.chance(0.8) ? rng.pick(roots) : rng.pick([...ids, "missing"]) }
      : rng.chance(0.5)
      ? { root_id: null }
      : {}),
  }));
}

Deno.test("compareReports() gives the former deltas on 300 seeded pairs of reports, on all and on the intersection", () => {
  const rng = makeRng(31415);
  let slices = 0;
  for (let n = 0; n < 300; n++) {
    const examples = randomExamples(rng, rng.int(40));
    const extra = rng.chance(0.3) ? ["zz-empty"] : [];
    const base = evaluation(rng, examples, extra);
    const adapter = evaluation(rng, examples, extra);
    const engine = ENGINES[n % ENGINES.length];
    const seed = rng.int(1000);
    if (examples.length > 0) {
      const got = compareReports(base, adapter, { seed, resamples: RESAMPLES, engine });
      deepStrictEqual(got.deltas, formerDeltas(base, adapter, seed));
      slices += got.slices.length;
    }
    // Two runs over parts of the examples: compared on the ones they share.
    const a = examples.filter(() => rng.chance(0.8));
    const b = examples.filter(() => rng.chance(0.8));
    const ra = evaluation(rng, a, []);
    const rb = evaluation(rng, b, []);
    const shared = new Set(
      a.map((e) => e.example_id).filter((id) => b.some((e) => e.example_id === id)),
    );
    const restricted = intersectReports(ra, rb);
    deepStrictEqual(restricted.base, formerRestrict(ra, shared));
    deepStrictEqual(restricted.adapter, formerRestrict(rb, shared));
    if (shared.size > 0) {
      const got = compareReports(ra, rb, {
        seed,
        resamples: RESAMPLES,
        engine,
        on: "intersection",
      });
      deepStrictEqual(
        got.deltas,
        formerDeltas(formerRestrict(ra, shared), formerRestrict(rb, shared), seed),
      );
    }
  }
  ok(slices > 600, `${slices} slices`);
});

Deno.test("languageGaps() gives the former gaps on 300 seeded reports, with every reference", () => {
  const rng = makeRng(27182);
  let pairs = 0;
  let unjoined = 0;
  for (let n = 0; n < 300; n++) {
    const examples = randomExamples(rng, 1 + rng.int(40));
    const report = evaluation(rng, examples, rng.chance(0.3) ? ["zz-empty"] : []);
    const engine = ENGINES[n % ENGINES.length];
    const seed = rng.int(1000);
    const reference = rng.chance(0.6) ? "en" : rng.pick(report.slices);
    const got = languageGaps(report, { reference, seed, resamples: RESAMPLES, engine });
    deepStrictEqual(got.gaps, formerGaps(report, reference, seed));
    for (const g of Object.values(got.gaps)) {
      pairs += g.primary.n_pairs;
      unjoined += g.primary.unjoined.no_root_id + g.primary.unjoined.root_not_in_reference;
    }
  }
  ok(pairs > 800 && unjoined > 1000, `${pairs} pairs, ${unjoined} unjoined`);
});
