// ExactJson.textAt keeps each array's items once read; its answers must be what one lookup from the
// text's start gives, for every path of seeded documents, asked in a shuffled order.
import { strictEqual } from "node:assert/strict";
import { canonicalValue, lookupCanonical } from "../../src/engine/mod.ts";
import { failed, readJson } from "../../src/formats/_exact.ts";
import { makeRng, type Rng } from "../_corpus.ts";

function value(rng: Rng, depth: number): unknown {
  const k = depth > 3 ? rng.int(4) : rng.int(7);
  if (k === 0) return rng.int(1000) - 500;
  if (k === 1) return ["a", "b", "é", 'x"y', "1"][rng.int(5)];
  if (k === 2) return [null, true, 2.5][rng.int(3)];
  if (k === 3) return {};
  if (k <= 5) return Array.from({ length: rng.int(6) }, () => value(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = rng.int(5); i > 0; i--) {
    o[["k", "0", "a.b", "ü", "z"][rng.int(5)]!] = value(rng, depth + 1);
  }
  return o;
}

function paths(x: unknown, prefix: (string | number)[], out: (string | number)[][]): void {
  out.push(prefix);
  if (Array.isArray(x)) x.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (typeof x === "object" && x !== null) {
    for (const [k, v] of Object.entries(x)) paths(v, [...prefix, k], out);
  }
}

Deno.test("ExactJson.textAt gives one lookup's answer at every path, its arrays split once", () => {
  const rng = makeRng(20261205);
  let checked = 0;
  for (let doc = 0; doc < 1000; doc++) {
    const x = value(rng, 0);
    const json = readJson(JSON.stringify(x), undefined, "the JSON");
    if (failed(json)) throw new Error(json.reason);
    const all: (string | number)[][] = [];
    paths(x, [], all);
    for (let i = all.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    for (const path of all) {
      const literals = path.map((p) => typeof p === "string" ? canonicalValue(p) : String(p));
      strictEqual(
        json.textAt(path),
        lookupCanonical(json.canonical, path.map(String), literals),
        JSON.stringify(path),
      );
      checked++;
    }
  }
  strictEqual(checked > 3000, true, `${checked} paths`);
});
