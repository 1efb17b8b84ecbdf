// JSON Schema validation throughput: Assay's closure compiler against @cfworker/json-schema (the
// edge-safe interpreter) and Ajv 2020 (the code-generating compiler), on one realistic tool-arguments
// schema and 100,000 seeded instances (~70% valid, ~30% invalid). All three must agree on every
// verdict. Speed is reported as instances/s and as ratios within this one run.
//
//   deno run -A bench/schema_bench.ts [--n 100000] [--rounds 5] [--seed 20261130] [--no-cfworker]
//
// --no-cfworker times only Assay and Ajv (cfworker is still checked for agreement).
import { compileSchema } from "../src/json_schema/json_schema.ts";
import { Validator } from "@cfworker/json-schema";
import { Ajv2020 } from "ajv/dist/2020";
import { rng } from "../tests/conformance/_corpus.ts";

const HHMM = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
export const SEARCH_FLIGHTS = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "search_flights arguments",
  type: "object",
  properties: {
    origin: { type: "string", pattern: "^[A-Z]{3}$", description: "IATA airport code" },
    destination: { type: "string", pattern: "^[A-Z]{3}$" },
    departure_date: { type: "string", format: "date" },
    return_date: { type: "string", format: "date" },
    cabin: { enum: ["economy", "premium_economy", "business", "first"], default: "economy" },
    passengers: {
      type: "array",
      minItems: 1,
      maxItems: 9,
      items: {
        type: "object",
        properties: {
          type: { enum: ["adult", "child", "infant"] },
          age: { type: "integer", minimum: 0, maximum: 120 },
          name: { type: "string", minLength: 1, maxLength: 64 },
        },
        required: ["type"],
        additionalProperties: false,
      },
    },
    max_stops: { type: "integer", minimum: 0, maximum: 3 },
    max_price: { type: "number", exclusiveMinimum: 0 },
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    flexible_dates: { type: "boolean" },
    filters: {
      type: "object",
      properties: {
        airlines: {
          type: "array",
          items: { type: "string", minLength: 2, maxLength: 3 },
          uniqueItems: true,
        },
        departure_window: {
          type: "object",
          properties: {
            earliest: { type: "string", pattern: HHMM },
            latest: { type: "string", pattern: HHMM },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    payment: {
      oneOf: [
        {
          type: "object",
          properties: {
            method: { const: "card" },
            last4: { type: "string", pattern: "^[0-9]{4}$" },
          },
          required: ["method", "last4"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: {
            method: { const: "points" },
            program: { type: "string", minLength: 1 },
          },
          required: ["method", "program"],
          additionalProperties: false,
        },
      ],
    },
  },
  required: ["origin", "destination", "departure_date", "passengers"],
  additionalProperties: false,
};

const AIRPORTS = ["OSL", "CDG", "JFK", "LHR", "NRT", "SFO", "FRA", "AMS", "MAD", "SIN"];
const AIRLINES = ["AF", "BA", "LH", "KL", "UA", "DL", "SK", "JL", "NH", "QF"];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function makeInstance(r: () => number): Json {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const date = () =>
    `2027-${String(1 + Math.floor(r() * 12)).padStart(2, "0")}-${
      String(1 + Math.floor(r() * 28)).padStart(2, "0")
    }`;
  const o: { [k: string]: Json } = {
    origin: pick(AIRPORTS),
    destination: pick(AIRPORTS),
    departure_date: date(),
    passengers: Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
      const p: { [k: string]: Json } = { type: pick(["adult", "child", "infant"]) };
      if (r() < 0.6) p.age = Math.floor(r() * 90);
      if (r() < 0.3) p.name = pick(["Ada", "Linus", "Grace", "Alan"]);
      return p;
    }),
  };
  if (r() < 0.5) o.return_date = date();
  if (r() < 0.7) o.cabin = pick(["economy", "premium_economy", "business", "first"]);
  if (r() < 0.5) o.max_stops = Math.floor(r() * 4);
  if (r() < 0.5) o.max_price = Math.round(r() * 200000) / 100 + 1;
  if (r() < 0.3) o.currency = pick(["EUR", "USD", "NOK"]);
  if (r() < 0.3) o.flexible_dates = r() < 0.5;
  if (r() < 0.4) {
    const f: { [k: string]: Json } = {};
    if (r() < 0.7) {
      f.airlines = [
        ...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(AIRLINES))),
      ];
    }
    if (r() < 0.5) {
      f.departure_window = { earliest: "06:00", latest: pick(["12:30", "18:45", "23:59"]) };
    }
    o.filters = f;
  }
  if (r() < 0.5) {
    o.payment = r() < 0.5
      ? { method: "card", last4: String(Math.floor(r() * 10000)).padStart(4, "0") }
      : { method: "points", program: pick(["EuroBonus", "Miles&More"]) };
  }
  return o;
}

/** One corruption of a valid instance; each makes it invalid. */
const MUTATIONS: ((o: { [k: string]: Json }, r: () => number) => void)[] = [
  (o) => delete o.origin,
  (o) => (o.origin = "oslo"),
  (o) => (o.max_stops = 7),
  (o) => (o.max_stops = 1.5),
  (o) => (o.cabin = "steerage"),
  (o) => (o.passengers = []),
  (o) => ((o.passengers as Json[]).push({ type: "adult", seat: "12A" })),
  (o) => ((o.passengers as { [k: string]: Json }[])[0]!.age = -1),
  (o) => (o.unexpected = true),
  (o) => (o.max_price = 0),
  (o) => (o.filters = { airlines: ["AF", "AF"] }),
  (o) => (o.filters = { departure_window: { earliest: "25:00" } }),
  (o) => (o.payment = { method: "card", program: "x" }),
  (o) => (o.payment = { method: "card", last4: "12a4" }),
  (o) => (o.departure_date = 20270101),
  (o) => (o.passengers = "two adults"),
];

function corpus(n: number, seed: number): Json[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const o = makeInstance(r) as { [k: string]: Json };
    if (r() < 0.3) MUTATIONS[Math.floor(r() * MUTATIONS.length)]!(o, r);
    return o;
  });
}

function arg(name: string, dflt: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : dflt;
}

if (import.meta.main) {
  const n = arg("n", 100_000), rounds = arg("rounds", 5), seed = arg("seed", 20261130);
  const instances = corpus(n, seed);
  const assay = compileSchema(SEARCH_FLIGHTS);
  const cfFast = new Validator(SEARCH_FLIGHTS as never, "2020-12", true);
  const cfFull = new Validator(SEARCH_FLIGHTS as never, "2020-12", false);
  const ajv = new Ajv2020({ allErrors: false, validateFormats: false, strict: false });
  const ajvValidate = ajv.compile(SEARCH_FLIGHTS);

  const runners: [string, (x: unknown) => boolean][] = [
    ["assay isValid", (x) => assay.isValid(x)],
    ["assay validate (all errors)", (x) => assay.validate(x).valid],
    ["ajv 2020 (allErrors: false)", (x) => ajvValidate(x) as boolean],
    ["cfworker (shortCircuit: true)", (x) => cfFast.validate(x).valid],
    ["cfworker (shortCircuit: false)", (x) => cfFull.validate(x).valid],
  ];

  // Agreement on every verdict.
  const verdicts = runners.map(([, f]) => instances.map(f));
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const v = verdicts[0]![i]!;
    if (v) valid++;
    for (let j = 1; j < runners.length; j++) {
      if (verdicts[j]![i] !== v) {
        throw new Error(
          `Verdicts disagree on instance ${i}: ${runners[0]![0]}=${v}, ${runners[j]![0]}=${
            verdicts[j]![i]
          }: ${JSON.stringify(instances[i])}`,
        );
      }
    }
  }
  console.log(
    `search_flights schema, ${n} instances (seed ${seed}, mulberry32): ${valid} valid, ${
      n - valid
    } invalid; all ${runners.length} validators agree on every verdict`,
  );

  // Interleaved rounds; the best round counts (the machine is noisy).
  const timed = Deno.args.includes("--no-cfworker") ? 3 : runners.length;
  const best = runners.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    runners.slice(0, timed).forEach(([, f], j) => {
      const t0 = performance.now();
      let k = 0;
      for (let i = 0; i < n; i++) if (f(instances[i])) k++;
      const dt = performance.now() - t0;
      if (k !== valid) throw new Error(`Round ${round}: ${runners[j]![0]} counted ${k} valid`);
      best[j] = Math.min(best[j]!, dt);
    });
  }
  const rate = best.map((ms) => n / (ms / 1000));
  for (let j = 0; j < timed; j++) {
    console.log(
      `${runners[j]![0].padEnd(32)} ${
        Math.round(rate[j]!).toLocaleString("en-US").padStart(12)
      } instances/s`,
    );
  }
  const [aFast, aFull, ajvR, cfT, cfF] = rate as [number, number, number, number, number];
  if (timed === runners.length) {
    console.log(`assay isValid / cfworker shortCircuit:true  = ${(aFast / cfT).toFixed(1)}x`);
    console.log(`assay validate / cfworker shortCircuit:false = ${(aFull / cfF).toFixed(1)}x`);
  }
  console.log(`assay isValid / ajv                          = ${(aFast / ajvR).toFixed(2)}x`);
}
