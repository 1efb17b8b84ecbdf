// The evaluation section of the conformance run: tool-call scoring, comparisons and their HTML,
// language gaps and the paired bootstrap on both layouts of its resampling kernel.
import {
  compareReports,
  type Engine,
  type ExampleInput,
  type ExampleRecord,
  formatReport,
  type GenerationInput,
  languageGaps,
  pairedBootstrap,
  renderComparisonHtml,
  scoreToolCalls,
} from "../../mod.ts";

/** A copy of a comparison with every delta and interval bound times `s`. */
function scaled<T>(comparison: T, s: number): T {
  const walk = (v: unknown) => {
    if (typeof v !== "object" || v === null) return;
    const m = v as { delta?: unknown; ci?: unknown };
    if (typeof m.delta === "number" && Array.isArray(m.ci)) {
      m.delta *= s;
      m.ci = m.ci.map((x: number) => x * s);
    }
    for (const x of Object.values(v)) walk(x);
  };
  const copy = structuredClone(comparison);
  walk(copy);
  return copy;
}

/**
 * Scores corpus outputs as two arms against fixed gold calls, then compares them, computes
 * language gaps and bootstraps a large cycled copy of the pairs (both layouts of the resampling
 * kernel), all on `engine`: the reports, as text, must be byte-identical on every runtime and
 * engine.
 */
export function evaluationSection(engine: Engine, outputs: string[]): string[] {
  const langs = ["en", "de", "fr"];
  const golds = [
    '{"name":"get_weather","arguments":{"city":"Paris","units":"celsius"}}',
    '{"name":"search","arguments":{"q":"caf\\u00e9","k":5.0,"filters":{"tags":["a","b"]}}}',
    '[{"name":"f","arguments":{}}]',
    '[{"name":"a","arguments":{}},{"name":"b","arguments":{}}]',
  ];
  const n = Math.min(300, Math.floor(outputs.length / 2));
  const examples: ExampleInput[] = [];
  const base: GenerationInput[] = [];
  const adapter: GenerationInput[] = [];
  for (let i = 0; i < n; i++) {
    const lang = langs[i % 3]!;
    const root = Math.floor(i / 3) * 3;
    const example_id = `${lang}-${i}`;
    examples.push({
      example_id,
      language: lang,
      root_id: lang === "en" ? null : `en-${root}`,
      target: golds[Math.floor(i / 3) % golds.length]!,
    });
    // Every seventh output is the gold call itself, so matches occur on both arms.
    const gold = golds[Math.floor(i / 3) % golds.length]!;
    base.push({ example_id, output: i % 7 === 0 ? gold : outputs[i]! });
    adapter.push({ example_id, output: i % 5 === 0 ? gold : outputs[n + i]! });
  }
  const b = scoreToolCalls(examples, base, { engine });
  const a = scoreToolCalls(examples, adapter, { engine });
  // The bootstrap runs on the engine's own resampling kernel.
  const options = { seed: 12345, resamples: 500, engine };
  // 33,000 pairs (the records, cycled) take the bootstrap's grouped layout; the 300 above
  // take its direct one.
  const many = (records: readonly ExampleRecord[]) =>
    Array.from({ length: 33_000 }, (_, i) => records[i % records.length]!);
  const grouped = pairedBootstrap(many(b.records), many(a.records).reverse(), {
    seed: 54321,
    resamples: 20,
    engine,
  });
  const comparison = compareReports(b, a, options);
  return [
    formatReport({ ...b, engine: "-" }),
    formatReport(comparison),
    // The HTML report, its charts' ticks at every scale from 1 to 1e-7.
    ...[1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-7].map((s) => renderComparisonHtml(scaled(comparison, s))),
    formatReport(languageGaps(a, options)),
    JSON.stringify(grouped),
  ];
}
