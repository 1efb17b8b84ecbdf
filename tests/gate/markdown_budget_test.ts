// The gate's Markdown summary (--markdown, and what is appended to GITHUB_STEP_SUMMARY) keeps
// within its byte budget whatever the failing ids: GitHub refuses a step summary over 1 MiB and
// loses it whole, and a 100,000-example run with half failing, or ids of 10 KB, passed it.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { markdownText, textHead } from "../../src/explain/mod.ts";
import {
  gateMarkdown,
  type GateVerdict,
  LISTED_EXAMPLES,
  MARKDOWN_BYTES,
  MARKDOWN_TEXT_CHARS,
} from "../../src/gate/mod.ts";
import { makeRng } from "../_corpus.ts";
import { hostileId, straddlingIds, verdict } from "./_hostile_ids.ts";

/** `1 more rule`, `2 more rules`. */
const moreRules = (n: number) => `${n} more rule${n === 1 ? "" : "s"}`;

/** What GitHub takes for one step summary, at most. */
const GITHUB_LIMIT = 1_048_576;

/** A text as the summary should show it: cut with `…` past the limit, then made Markdown. */
function expected(text: string): string {
  const head = textHead(text, MARKDOWN_TEXT_CHARS);
  return markdownText(head === text ? text : `${head}…`);
}

/**
 * Checks a summary: within the budget and GitHub's limit, well-formed UTF-8, one line per line it
 * means (no id breaks one), no HTML, every pipe and backtick escaped; each rule's listed ids are
 * its first ones, as shown, and with the count of those left out make its failing count.
 */
function check(md: string, v: GateVerdict): { listed: number; notShown: boolean } {
  const encoded = new TextEncoder().encode(md);
  ok(encoded.length <= MARKDOWN_BYTES, `${encoded.length} bytes`);
  ok(encoded.length < GITHUB_LIMIT);
  ok(md.isWellFormed());
  strictEqual(new TextDecoder("utf-8", { fatal: true }).decode(encoded), md);
  ok(!/[<>]/.test(md));
  const lines = md.split("\n");
  const kinds = /^(|### assay gate .*|\| .* \|$|\*\*.*|Not shown here: .*|Note: .*)$/;
  for (const line of lines) ok(kinds.test(line), line.slice(0, 200));
  // Past the table, a pipe or a backtick is always escaped (an odd run of backslashes before it).
  for (const line of lines.filter((l) => l.startsWith("**"))) {
    for (const m of line.matchAll(/(\\*)[|`]/g)) ok(m[1]!.length % 2 === 1, line.slice(0, 200));
  }
  const rows = lines.filter((l) => l.startsWith("| ") && !/^\| (rule|---) /.test(l));
  let listed = 0;
  const unlisted = { rules: 0, examples: 0 };
  for (const r of v.rules) {
    const head = `**${expected(r.name)}**: `;
    const line = lines.find((l) => l.startsWith(head));
    if (line === undefined) {
      unlisted.rules++;
      unlisted.examples += r.failing.length;
      continue;
    }
    listed++;
    const tail = line.match(/… and (\d+) more \((\d+) in all\)$/);
    const more = tail ? Number(tail[1]) : 0;
    if (tail) strictEqual(Number(tail[2]), r.failing.length);
    const shown = r.failing.length - more;
    ok(shown >= 0 && shown <= LISTED_EXAMPLES, `${shown} shown`);
    const ids = r.failing.slice(0, shown).map(expected);
    const rest = tail ? `${shown > 0 ? ", " : ""}${tail[0]}` : "";
    strictEqual(line, head + ids.join(", ") + rest);
  }
  // A rule not listed at all is counted, with its failing examples, as a row left out is.
  const said = `the ${unlisted.examples} failing examples of ${moreRules(unlisted.rules)}`;
  strictEqual(md.includes(said), unlisted.rules > 0, said);
  ok(rows.length <= v.rules.length);
  strictEqual(
    md.includes(`: ${moreRules(v.rules.length - rows.length)}`),
    rows.length < v.rules.length,
  );
  return { listed, notShown: lines.some((l) => l.startsWith("Not shown here: ")) };
}

Deno.test("gateMarkdown() of 100,000 examples, half failing, stays within its budget and counts what it leaves out", () => {
  const failing = Array.from(
    { length: 50_000 },
    (_, i) => `example-${String(2 * i).padStart(6, "0")}`,
  );
  const v = verdict([{ slice: "overall", failing }, { slice: "en", failing }, {
    slice: "ja",
    failing: failing.slice(0, 3),
  }]);
  const md = gateMarkdown(v, "gate.yaml");
  const { listed, notShown } = check(md, v);
  strictEqual(listed, 3);
  ok(notShown);
  ok(md.includes(`… and ${50_000 - LISTED_EXAMPLES} more (50000 in all)`));
  ok(md.includes("`assay gate --out FILE` or `--json`"), md.slice(-400));
});

Deno.test("gateMarkdown() of seeded hostile ids and slices stays within its budget, valid UTF-8, every id escaped and counted", () => {
  // Few rules, the lists cut by count; many, the budget reached by the lists; and more, by the table.
  for (const [seed, count] of [[1, 5], [2, 40], [3, 400]] as const) {
    const rng = makeRng(seed);
    const rules = Array.from({ length: count }, (_, r) => ({
      slice: hostileId(rng, r),
      failing: Array.from(
        { length: rng.pick(count > 100 ? [1, 7, 60] : [1, 7, 60, 5000]) },
        (_, i) => hostileId(rng, i),
      ),
    }));
    const v = verdict(rules);
    const md = gateMarkdown(v, `gate ${hostileId(rng, 0)}.yaml`);
    const { listed, notShown } = check(md, v);
    ok(listed > 0);
    // Whatever is not listed, or listed in part, is said to be left out.
    const whole = v.rules.every((r) => md.includes(`**${expected(r.name)}**: `)) &&
      !md.includes(" more (");
    strictEqual(notShown, !whole);
  }
});

Deno.test("gateMarkdown() cuts an over-long id with an ellipsis before a letter's combining marks and a surrogate pair", () => {
  const cut = MARKDOWN_TEXT_CHARS;
  const ids = straddlingIds("|", "short|`id`");
  const md = gateMarkdown(verdict([{ slice: "overall", failing: ids }]), "g.yaml");
  check(md, verdict([{ slice: "overall", failing: ids }]));
  const line = md.split("\n").find((l) => l.startsWith("**"))!;
  deepStrictEqual(line.split(": ")[1]!.split(", "), [
    "x".repeat(cut - 1) + "…",
    "x".repeat(cut - 1) + "…",
    "x".repeat(cut) + "…",
    "short\\|\\`id\\`",
  ]);
  ok(!md.includes("Not shown here"), md);
});
