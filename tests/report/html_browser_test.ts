// The demo's comparison report, rendered and loaded in headless Chromium over the DevTools
// protocol: the page loads with no errors and no network use, both plots are there with one
// interval per delta, and a full-page screenshot is written as the CI artifact.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { compareReports, languageGaps } from "../../mod.ts";
import { renderComparisonHtml } from "../../src/report/mod.ts";
import { Browser, openPage } from "./_chromium.ts";
import { scoreDemo } from "../_demo.ts";

const root = new URL("../../", import.meta.url);

function artifactPath(): string {
  const dir = Deno.env.get("ASSAY_ARTIFACTS") || new URL("bench/results", root).pathname;
  Deno.mkdirSync(dir, { recursive: true });
  return `${dir}/comparison.png`;
}

Deno.test({
  name: "renderComparisonHtml() gives a page Chromium loads cleanly, offline, with every interval",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "assay-html-" });
    let browser: Browser | undefined;
    try {
      const base = await scoreDemo(dir, "base");
      const adapter = await scoreDemo(dir, "adapter");
      const cmp = compareReports(base, adapter, { seed: 0, resamples: 10_000 });
      const gaps = {
        base: languageGaps(base, { reference: "en", resamples: 10_000 }),
        adapter: languageGaps(adapter, { reference: "en", resamples: 10_000 }),
      };
      const html = renderComparisonHtml(cmp, { gaps });
      const file = `${dir}/comparison.html`;
      await Deno.writeTextFile(file, html);
      const fileUrl = new URL(`file://${file}`).href;

      browser = await Browser.launch(30_000);
      const { sessionId, send, evaluate } = await openPage(browser, fileUrl, 1200);
      const nDeltas = cmp.metric_names.length * (1 + cmp.slices.length);
      const nGaps = gaps.base.targets.length * gaps.base.metric_names.length +
        gaps.adapter.targets.length * gaps.adapter.metric_names.length;
      const found = await evaluate(`(() => {
        const q = (s) => document.querySelectorAll(s).length;
        const forest = document.querySelector("svg#forest-plot");
        const box = forest ? forest.getBoundingClientRect() : null;
        return {
          title: document.title,
          forest: q("svg#forest-plot"),
          gap: q("svg#gap-plot"),
          forestDeltas: q("svg#forest-plot g.delta"),
          forestCis: q("svg#forest-plot line.ci"),
          gapCis: q("svg#gap-plot line.ci"),
          forestMarked: q("svg#forest-plot g.delta[data-excludes-zero=true]"),
          forestVisible: box !== null && box.width > 900 && box.height > 400,
          scripts: q("script"),
          overflowX: document.documentElement.scrollWidth > window.innerWidth,
        };
      })()`);
      const marked = Object.values(cmp.deltas.by_language).concat(cmp.deltas.overall)
        .flatMap((d) => Object.values(d))
        .filter((d) => d.ci[0] > 0 || d.ci[1] < 0).length;
      assertEquals(found, {
        title: "Assay comparison: adapter vs base",
        forest: 1,
        gap: 1,
        forestDeltas: nDeltas,
        forestCis: nDeltas,
        gapCis: nGaps,
        forestMarked: marked,
        forestVisible: true,
        scripts: 0,
        overflowX: false,
      });

      const { data } = await send("Page.captureScreenshot", {
        format: "png",
        captureBeyondViewport: true,
      }) as { data: string };
      const png = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      assertEquals([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
      await Deno.writeFile(artifactPath(), png);

      const events = browser.events.filter((e) => e.sessionId === sessionId);
      const problems = events.filter((e) =>
        e.method === "Runtime.exceptionThrown" ||
        (e.method === "Runtime.consoleAPICalled" &&
          ["error", "assert"].includes(String(e.params.type))) ||
        (e.method === "Log.entryAdded" &&
          (e.params.entry as { level?: string } | undefined)?.level === "error")
      ).map((e) => JSON.stringify(e.params).slice(0, 300));
      assertEquals(problems, []);
      const requests = events.filter((e) => e.method === "Network.requestWillBeSent")
        .map((e) => (e.params.request as { url: string }).url);
      assertEquals(requests, [fileUrl]);
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
