// The comparison page with its examples section, in headless Chromium: the filters appear (the
// script ran), filtering to regressed full calls leaves the demo's 11, expanding fr-0010 shows
// its missing `text` argument, and at 700 px the plot's text stays readable. The screenshot,
// written as the CI artifact examples.png, is read back: its pixels show that line in red. Each
// filter option selects the rows of its slice or status, whitespace in it and all.
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { compareReports, type EvaluationReport, scoreToolCalls } from "../../mod.ts";
import { renderComparisonHtml } from "../../src/report/mod.ts";
import { examplesSection, explainScore } from "../../src/explain/mod.ts";
import { Browser, openPage } from "./_chromium.ts";
import { scoreDemo } from "../_demo.ts";

const root = new URL("../../", import.meta.url);

Deno.test({
  name: "examplesSection() filters, expands and shows the regressed examples in Chromium",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "assay-examples-" });
    let browser: Browser | undefined;
    try {
      const base = await scoreDemo(dir, "base", ["--details"]);
      const adapter = await scoreDemo(dir, "adapter", ["--details"]);
      const cmp = compareReports(base, adapter, { seed: 0, resamples: 2000 });
      const html = renderComparisonHtml(cmp, {
        sections: [examplesSection(cmp, base, adapter)],
      });
      const file = `${dir}/comparison.html`;
      await Deno.writeTextFile(file, html);
      // Without the script the page still lists every example, each one expandable.
      strictEqual((html.match(/<tr class="\w+" data-id=/g) ?? []).length, 395);
      strictEqual((html.match(/<details>/g) ?? []).length, 395);

      browser = await Browser.launch(30_000);
      const { sessionId, send, evaluate } = await openPage(
        browser,
        new URL(`file://${file}`).href,
        700,
      );
      const state = await evaluate(`(() => {
        const s = document.getElementById("examples");
        const sel = (n) => s.querySelector("select[name=" + n + "]");
        const shown = () => [...s.querySelectorAll("tbody tr")].filter((r) => !r.hidden);
        const before = { filters: !s.querySelector(".filters").hidden, shown: shown().length };
        sel("change").value = "regressed";
        sel("change").dispatchEvent(new Event("change", { bubbles: true }));
        const regressed = shown().map((r) => r.dataset.id).sort();
        sel("slice").value = "fr";
        sel("slice").dispatchEvent(new Event("change", { bubbles: true }));
        const fr = shown().map((r) => r.dataset.id);
        const row = s.querySelector('tr[data-id="fr-0010"]');
        row.querySelector("details").open = true;
        const text = row.innerText;
        const svg = document.querySelector("svg#forest-plot");
        const label = svg.querySelector("text");
        // The text's size on screen: its font size in the SVG's units times the SVG's scale.
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return {
          before, regressed, fr, count: s.querySelector(".count").textContent,
          missing: text.includes('missing ["text"]'),
          labelPx: Math.round(parseFloat(getComputedStyle(label).fontSize) * scale * 10) / 10,
        };
      })()`) as {
        before: unknown;
        regressed: string[];
        fr: string[];
        count: string;
        missing: boolean;
        labelPx: number;
      };
      assertEquals(state.before, { filters: true, shown: 395 });
      assertEquals(state.regressed, cmp.regressions.overall.full_call_exact_match.ids);
      strictEqual(state.regressed.length, 11);
      assertEquals(state.fr, ["fr-0010", "fr-0022", "fr-0042", "fr-0064"]);
      strictEqual(state.count, "4 of 395 shown");
      ok(state.missing, "fr-0010's detail lists its missing text argument");
      // The plot keeps a readable size at 700 px (its text was about 6 px before).
      ok(state.labelPx >= 10, `the forest plot's text is ${state.labelPx} px`);

      const { data } = await send("Page.captureScreenshot", { format: "png" }) as {
        data: string;
      };
      const png = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      assertEquals([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      const artifacts = Deno.env.get("ASSAY_ARTIFACTS") ||
        new URL("bench/results", root).pathname;
      await Deno.mkdir(artifacts, { recursive: true });
      // The drill-down in view: fr-0010 expanded under the filters.
      await evaluate(`document.querySelector('tr[data-id="fr-0010"]').scrollIntoView()`);
      const shot = await send("Page.captureScreenshot", { format: "png" }) as { data: string };
      // What the screenshot shows, read from its pixels (decoded by the browser from the PNG,
      // not from the page): the missing-argument line is inside it, drawn in its red.
      const seen = await evaluate(`(async () => {
        const li = document.querySelector('tr[data-id="fr-0010"] li.missing');
        const r = li.getBoundingClientRect();
        const img = new Image();
        img.src = "data:image/png;base64,${shot.data}";
        await img.decode();
        const k = img.width / window.innerWidth;
        const c = document.createElement("canvas");
        [c.width, c.height] = [img.width, img.height];
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const box = [r.left, r.top, r.width, r.height].map((v) => Math.round(v * k));
        const inView = box[1] >= 0 && box[1] + box[3] <= img.height;
        const px = g.getImageData(...box).data;
        let red = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (Math.abs(px[i] - 179) + Math.abs(px[i + 1] - 38) + Math.abs(px[i + 2] - 30) < 40) red++;
        }
        return { inView, red, color: getComputedStyle(li).color };
      })()`) as { inView: boolean; red: number; color: string };
      strictEqual(seen.color, "rgb(179, 38, 30)");
      ok(seen.inView, "the screenshot shows fr-0010's missing argument");
      ok(seen.red >= 50, `the missing argument's line has ${seen.red} red pixels`);
      await Deno.writeFile(
        `${artifacts}/examples.png`,
        Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0)),
      );
      const errors = browser.events.filter((e) =>
        e.sessionId === sessionId && e.method === "Runtime.exceptionThrown"
      );
      assertEquals(errors, []);
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/**
 * Scores `examples` with one output for every example of each model (details on), edits the
 * adapter's report when asked (after the comparison), and writes their comparison page with its
 * examples section to `dir`.
 *
 * @returns The page's URL.
 */
async function examplesPage(
  dir: string,
  examples: { example_id: string; language: string; target: unknown }[],
  [before, after]: [string, string],
  edit?: (adapter: EvaluationReport) => void,
): Promise<string> {
  const outputs = (o: string) => examples.map((e) => ({ example_id: e.example_id, output: o }));
  const base = scoreToolCalls(examples, outputs(before), { detail: explainScore() });
  const adapter = scoreToolCalls(examples, outputs(after), { detail: explainScore() });
  const cmp = compareReports(base, adapter, { resamples: 10 });
  edit?.(adapter);
  const file = `${dir}/comparison.html`;
  await Deno.writeTextFile(
    file,
    renderComparisonHtml(cmp, { sections: [examplesSection(cmp, base, adapter)] }),
  );
  return new URL(`file://${file}`).href;
}

Deno.test({
  name: "examplesSection() filters by slices and statuses with whitespace in Chromium",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "assay-examples-" });
    let browser: Browser | undefined;
    try {
      // Two examples in each slice; the adapter's status of the odd ones is edited by hand.
      const target = { name: "f", arguments: {} };
      const examples = ["en", " en", "a  b"].flatMap((language) =>
        [0, 1].map((i) => ({ example_id: `${language}-${i}`, language, target }))
      );
      const url = await examplesPage(
        dir,
        examples,
        ["no", JSON.stringify(target)],
        (adapter) =>
          adapter.records.forEach((r, i) => i % 2 && (r.status = " not  json" as typeof r.status)),
      );
      browser = await Browser.launch(30_000);
      const { evaluate } = await openPage(browser, url, 1000);
      // For each option of each filter alone: the rows it shows, by their slice and status.
      const shown = await evaluate(`(() => {
        const s = document.getElementById("examples");
        const out = {};
        for (const name of ["slice", "status"]) {
          const sel = s.querySelector("select[name=" + name + "]");
          for (const o of [...sel.options].slice(1)) {
            sel.value = o.value;
            sel.dispatchEvent(new Event("change", { bubbles: true }));
            out[name + " " + JSON.stringify(o.value)] = [...s.querySelectorAll("tbody tr")]
              .filter((r) => !r.hidden).map((r) => r.dataset[name]);
          }
          sel.value = "";
        }
        return out;
      })()`);
      assertEquals(shown, {
        'slice " en"': [" en", " en"],
        'slice "a  b"': ["a  b", "a  b"],
        'slice "en"': ["en", "en"],
        'status " not  json"': [" not  json", " not  json", " not  json"],
        'status "ok"': ["ok", "ok", "ok"],
      });
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "examplesSection() keeps every column in view with a long id and long arguments",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "assay-examples-" });
    let browser: Browser | undefined;
    try {
      // An id and a gold string with no place to break: the id's cell grew to their width and
      // pushed the slice, status and change columns out of the page.
      const long = "bench/split/" + "0123456789abcdef".repeat(12);
      const target = { name: "f", arguments: { path: `/data/${"x".repeat(200)}` } };
      const examples = [long, "short"].map((example_id) => ({
        example_id,
        language: "en",
        target,
      }));
      const url = await examplesPage(dir, examples, [JSON.stringify(target), "no"]);
      browser = await Browser.launch(30_000);
      const { evaluate } = await openPage(browser, url, 800);
      const seen = await evaluate(`(() => {
        const s = document.getElementById("examples");
        s.querySelectorAll("details").forEach((d) => d.open = true);
        const right = s.getBoundingClientRect().right;
        const cells = [...s.querySelectorAll("tbody tr:first-child td")];
        return {
          page: document.documentElement.scrollWidth <= window.innerWidth,
          cells: cells.map((c) => c.getBoundingClientRect().right <= right + 0.5),
        };
      })()`);
      assertEquals(seen, { page: true, cells: [true, true, true, true, true] });
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "examplesSection() filters and sorts ids and slices holding a NUL or a bidi control in Chromium",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "assay-examples-" });
    let browser: Browser | undefined;
    try {
      // The user's ids: shown "n\u0000ul21", but a raw NUL in data-id, which Chromium read as
      // U+FFFD, so the sort ordered by another string than the one the row shows.
      const target = { name: "f", arguments: {} };
      const examples = ["en", "d\u0000e"].flatMap((language) =>
        [2, 0, 1].map((i) => ({
          example_id: language === "en" ? `n\u0000ul2${i}\u202e` : `b\u202e${i}`,
          language,
          target,
        }))
      );
      const url = await examplesPage(dir, examples, ["no", JSON.stringify(target)]);
      browser = await Browser.launch(30_000);
      const { evaluate } = await openPage(browser, url, 1000);
      const seen = await evaluate(`(() => {
        const s = document.getElementById("examples");
        const rows = () => [...s.querySelectorAll("tbody tr")];
        const shown = () => rows().filter((r) => !r.hidden);
        const text = (r) => r.querySelector("summary").textContent;
        const same = rows().every((r) => r.dataset.id === text(r));
        s.querySelector("th[data-key=id]").click();
        const sorted = rows().map(text);
        const sel = s.querySelector("select[name=slice]");
        const slices = [...sel.options].map((o) => o.value);
        sel.value = slices[1];
        sel.dispatchEvent(new Event("change", { bubbles: true }));
        return { same, sorted, slices, filtered: shown().map(text), raw: /[\\u0000\\ufffd\\u202e]/.test(document.body.innerHTML) };
      })()`);
      assertEquals(seen, {
        same: true,
        sorted: [
          '"b\\u202e0"',
          '"b\\u202e1"',
          '"b\\u202e2"',
          '"n\\u0000ul20\\u202e"',
          '"n\\u0000ul21\\u202e"',
          '"n\\u0000ul22\\u202e"',
        ],
        slices: ["", '"d\\u0000e"', "en"],
        filtered: ['"b\\u202e0"', '"b\\u202e1"', '"b\\u202e2"'],
        raw: false,
      });
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
