// The top of the page: the title, the inputs with their digests, the contracts and bootstrap
// settings, and the overall cards with their count of intervals that exclude zero.
import type { ComparisonReport } from "../compare/mod.ts";
import type { EvaluationReport } from "../evaluation/mod.ts";
import { metricOf, sliceDeltas, sliceLabel } from "./_deltas.ts";
import {
  bdi,
  ci,
  count,
  direction,
  esc,
  label,
  mark,
  percent,
  rate,
  settingsText,
  short,
  signed,
  SYMBOL,
} from "./_html_text.ts";

function digestCell(d: EvaluationReport["inputs"]["examples"]): string {
  return d
    ? `<code title="${esc(d.sha256)}">${esc(short(d.sha256))}</code> <small>${
      count(d.rows)
    } rows</small>`
    : `<span class="muted">not recorded</span>`;
}

/** The page header: title, lede, settings, contracts and input digests. */
export function header(c: ComparisonReport, title: string): string {
  const files = ["examples", "generations", "prompts"] as const;
  const inputs = files.map((f) => {
    const b = c.inputs.base[f];
    const a = c.inputs.adapter[f];
    const same = b && a && b.sha256 === a.sha256 && b.rows === a.rows;
    return `<tr><th scope="row">${f}</th><td>${digestCell(b)}</td><td>${
      same ? `<span class="muted">same as base</span>` : digestCell(a)
    }</td></tr>`;
  });
  return `<header><h1>${esc(title)}</h1><p class="lede">${
    count(c.n)
  } examples scored by both models, in ${c.slices.length} language slices (${
    c.slices.map(bdi).join(", ")
  }). Every \u0394 is adapter \u2212 base, with a ${
    percent(c.bootstrap.level)
  } paired-bootstrap interval.</p>` +
    `<div class="meta"><dl>` +
    `<dt>Bootstrap</dt><dd>${esc(settingsText(c.bootstrap))}; ${esc(c.bootstrap.streams)}</dd>` +
    `<dt>Contracts</dt><dd><code>${esc(c.parser_id)}</code> \u00b7 <code>${
      esc(c.canonical_id)
    }</code></dd>` +
    `<dt>Tool</dt><dd>${esc(c.tool.name)} ${esc(c.tool.version)} \u00b7 <code>${
      esc(c.schema)
    }</code></dd></dl>` +
    `<table class="inputs"><thead><tr><th>Input</th><th>Base (SHA-256)</th><th>Adapter (SHA-256)</th></tr></thead><tbody>${
      inputs.join("")
    }</tbody></table></div></header>`;
}

/** The overall cards and the count of intervals that exclude zero. */
export function glance(c: ComparisonReport): string {
  const all = sliceDeltas(c).flatMap(([slice, d]) =>
    c.metric_names.map((m) => metricOf(d, m, sliceLabel(slice)))
  );
  const up = all.filter((d) => direction(d.ci) === "up").length;
  const down = all.filter((d) => direction(d.ci) === "down").length;
  const cards = c.metric_names.map((metric) => {
    const d = metricOf(c.deltas.overall, metric, "overall");
    const dir = direction(d.ci);
    return `<div class="card ${dir}"><div class="name">${esc(label(metric))}</div>` +
      `<div class="move">${rate(d.base.value)} \u2192 <b>${rate(d.adapter.value)}</b></div>` +
      `<div class="delta">${mark(dir)} ${signed(d.delta)}</div><div class="ci">${
        percent(c.bootstrap.level)
      } CI ${ci(d.ci)}</div></div>`;
  });
  return `<section><h2>Overall</h2><div class="cards">${cards.join("")}</div>` +
    `<p class="summary">${
      up + down
    } of ${all.length} intervals exclude zero: ${up} with the adapter higher (${SYMBOL.up}), ${down} with it lower (${SYMBOL.down}).</p></section>`;
}
