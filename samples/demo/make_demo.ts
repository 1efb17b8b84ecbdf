// Builds the bundled demo dataset (see README.md). From the repository root:
//
//   deno run --allow-write=samples/demo samples/demo/make_demo.ts
//
// Everything is drawn from a seeded PRNG keyed by purpose and example id, so the output is
// byte-identical on every run and one example's draws do not depend on any other example.
import { canon, clone, dump, getAt, leaves, type Path, put } from "./_json.ts";
import {
  chatPrompt,
  F,
  type Json,
  type Lang,
  LANGS,
  NOTHING_TO_DO,
  type Obj,
  PROSE,
  type Rand,
  say,
  toolName,
  TOOLS,
} from "./_tools.ts";

const SEED = "assay-demo/v1";
const N_ROOTS = 112;
/** Chance that an English root has a translation in each language. */
const TRANSLATED: Record<Lang, number> = { en: 1, de: 0.8, fr: 0.75, es: 0.75, ja: 0.55 };
/** Roots that must be dropped before scoring. The translations of the three corrupted English rows
 * are fine and kept: their root_id points at a dropped row, so they cannot join a language gap. */
const SPECIAL: Record<number, string> = {
  14: "multi",
  47: "multi",
  83: "multi",
  92: "multi",
  61: "empty",
  23: "en_arguments_string",
  72: "en_missing_name",
  101: "en_arguments_null",
  38: "fr_arguments_list",
};

/** Per-example error rates: [a format failure, a wrong function name, wrong arguments]. */
const RATES: Record<Model, Record<Lang, [number, number, number]>> = {
  base: {
    en: [0.1, 0.04, 0.3],
    de: [0.15, 0.07, 0.31],
    fr: [0.18, 0.07, 0.38],
    es: [0.21, 0.07, 0.42],
    ja: [0.2, 0.08, 0.36],
  },
  adapter: {
    en: [0.003, 0.015, 0.17],
    de: [0.008, 0.025, 0.25],
    fr: [0.008, 0.025, 0.26],
    es: [0.008, 0.025, 0.28],
    ja: [0.01, 0.03, 0.27],
  },
};
/** How often an example reuses its root's difficulty, and the adapter its base's draw. */
const ROOT_SHARE = 0.5, ARM_SHARE = 0.8, SAME_MISTAKE = 0.6;

type Model = "base" | "adapter";

// ---- Seeded PRNG: mulberry32, seeded with FNV-1a of "<seed>/<key>" -----------------------------

class Rng implements Rand {
  #s: number;
  constructor(key: string) {
    let h = 0x811c9dc5;
    for (const b of new TextEncoder().encode(`${SEED}/${key}`)) h = Math.imul(h ^ b, 0x01000193);
    this.#s = h >>> 0;
  }
  float(): number {
    let x = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.float() < p;
  }
  sample<T>(xs: readonly T[], k: number): T[] {
    const pool = [...xs], out: T[] = [];
    while (out.length < k && pool.length) out.push(pool.splice(this.int(pool.length), 1)[0] as T);
    return out;
  }
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    let x = this.float() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((x -= w) < 0) return k;
    return entries[entries.length - 1]![0];
  }
}

// ---- The examples ---------------------------------------------------------------------------

type Example = { example_id: string; language: Lang; root_id: string | null } & Obj;
interface Kept {
  id: string;
  lang: Lang;
  root: number;
  tools: string[];
  prompt: string;
  name: string;
  args: Obj;
  params: Obj; // the tool's JSON schema
  en: Obj; // the English root's arguments, for "answered in English" slips
  local: Record<string, string>;
}

const byLang: Record<Lang, Example[]> = { en: [], de: [], fr: [], es: [], ja: [] };
const keptByLang: Record<Lang, Kept[]> = { en: [], de: [], fr: [], es: [], ja: [] };
for (let n = 1; n <= N_ROOTS; n++) {
  const r = new Rng(`root/${n}`), special = SPECIAL[n] ?? "";
  const tool = TOOLS[(n - 1) % TOOLS.length]!, render = tool.gen(r);
  const second = special === "multi" ? TOOLS[(n + 4) % TOOLS.length]! : null;
  const render2 = second?.gen(r);
  const offered = [
    tool,
    ...(second ? [second] : []),
    ...r.sample(TOOLS.filter((x) => x !== tool && x !== second), 3),
  ];
  const tools = TOOLS.filter((x) => offered.includes(x)).map(toolName);
  const langs = LANGS.filter((l) => r.chance(TRANSLATED[l]) || (special === `${l}_arguments_list`));
  for (const lang of langs) {
    const v = render(lang), name = toolName(tool), id = `${lang}-${String(n).padStart(4, "0")}`;
    let query = v.query, target: Json = { name, arguments: v.args };
    if (render2) {
      const v2 = render2(lang);
      query += " " + v2.query;
      target = [target, { name: toolName(second!), arguments: v2.args }];
    } else if (special === "empty") [query, target] = [say(NOTHING_TO_DO, lang), []];
    else if (special === `${lang}_arguments_string`) target = { name, arguments: dump(v.args) };
    else if (special === `${lang}_missing_name`) target = { function: name, arguments: v.args };
    else if (special === `${lang}_arguments_null`) target = { name, arguments: null };
    else if (special === `${lang}_arguments_list`) target = { name, arguments: [v.args] };
    const root_id = lang === "en" ? null : `en-${id.slice(3)}`;
    const row = { example_id: id, language: lang, root_id, user_query: query, tools, target };
    byLang[lang].push(row);
    if (canon(target) === canon({ name, arguments: v.args })) {
      const prompt = chatPrompt(tools, query), en = render("en").args;
      const params = tool.schema.parameters as Obj;
      const [args, local] = [v.args, v.local];
      keptByLang[lang].push({ id, lang, root: n, tools, prompt, name, args, params, en, local });
    }
  }
}

// ---- Argument mistakes ------------------------------------------------------------------------

function tweak(s: string, r: Rng): string | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(s);
  if (date) {
    if (r.chance(0.4)) return "2024" + s.slice(4); // the model's training year
    return `${date[1]}-${date[2]}-${String((Number(date[3]) % 28) + 1).padStart(2, "0")}${date[4]}`;
  }
  const plain = s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  if (plain !== s) return plain; // Zürich → Zurich
  if (s.includes("@")) return s.replace(/\.[a-z]+$/, ".org");
  if (/^[a-z_]+$/.test(s)) return s[0]!.toUpperCase() + s.slice(1); // celsius → Celsius
  if (/^\d+$/.test(s)) return s + ".T"; // a ticker with an exchange suffix
  return s.toLowerCase() !== s ? s.toLowerCase() : null;
}
/** The enum values the schema allows at a path, if any. */
function enumAt(params: Obj, p: Path): string[] {
  let s: Json | undefined = params;
  for (const k of p) s = getAt(s, typeof k === "number" ? ["items"] : ["properties", k]);
  return (getAt(s, ["enum"]) ?? []) as string[];
}

interface Ctx {
  lang: Lang;
  params: Obj;
  en: Obj;
  local: Record<string, string>;
  r: Rng;
}
const of = (a: Obj, keep: (v: Json, p: Path) => boolean) =>
  leaves(a).filter(([p, v]) => keep(v, p));
const isNum = (v: Json) => typeof v === "number" || v instanceof F;
const MUTATIONS: Record<string, (a: Obj, c: Ctx) => Obj | null> = {
  float_int(a, { r }) { // 150.0 → 150, or 2 → 2.0
    const fs = of(a, (v) => v instanceof F && Number.isInteger(v.v));
    const xs = fs.length ? fs : of(a, (v) => typeof v === "number");
    if (!xs.length) return null;
    const [p, v] = r.pick(xs);
    return put(a, p, v instanceof F ? v.v : new F(v as number));
  },
  drop_key(a, { r }) {
    const keys = Object.keys(a);
    if (keys.length < 2) return null;
    const b = clone(a);
    delete b[r.pick(keys)];
    return b;
  },
  extra_key(a, { r, lang }) {
    const extras: [string, Json][] = [["language", lang], ["timezone", "Europe/Zurich"], [
      "limit",
      5,
    ]];
    const [k, v] = r.pick(extras.filter(([k]) => !(k in a)));
    return { ...a, [k]: v };
  },
  wrong_value(a, { r, params }) { // another enum value, a wrong date, a lost accent, ...
    const xs = of(a, (v) => typeof v === "string" && v.length < 40);
    if (!xs.length) return null;
    const [p, v] = r.pick(xs), others = enumAt(params, p).filter((x) => x !== v);
    const w = others.length && r.chance(0.7) ? r.pick(others) : tweak(v as string, r);
    return w === null ? null : put(a, p, w);
  },
  number_off(a, { r }) {
    const xs = of(a, isNum);
    if (!xs.length) return null;
    const [p, v] = r.pick(xs);
    if (!(v instanceof F)) return put(a, p, (v as number) + 1);
    return put(a, p, new F(Number.isInteger(v.v) ? v.v + 50 : Math.round(v.v)));
  },
  as_string(a, { r }) { // 2 → "2"
    const xs = of(a, isNum);
    if (!xs.length) return null;
    const [p, v] = r.pick(xs);
    return put(a, p, dump(v));
  },
  bool_flip(a, { r }) {
    const xs = of(a, (v) => typeof v === "boolean");
    if (!xs.length) return null;
    const [p, v] = r.pick(xs);
    return put(a, p, !v);
  },
  list_change(a, { r }) { // order matters in lists; or an item goes missing
    const xs = Object.entries(a).filter(([, v]) => Array.isArray(v) && v.length > 1);
    if (!xs.length) return null;
    const [k, v] = r.pick(xs) as [string, Json[]];
    return { ...a, [k]: r.chance(0.5) ? [...v].reverse() : v.slice(0, -1) };
  },
  localized(a, { r, local }) { // the query's spelling: 東京 for Tokyo, Zürich for ZRH
    const xs = of(a, (v) => typeof v === "string" && v in local && local[v] !== v);
    if (!xs.length) return null;
    const [p, v] = r.pick(xs);
    return put(a, p, local[v as string]!);
  },
  english_text(a, { r, lang, en }) { // a translated argument answered in English
    if (lang === "en") return null;
    const xs = of(a, (v, p) => typeof getAt(en, p) === "string" && getAt(en, p) !== v);
    if (!xs.length) return null;
    const [p] = r.pick(xs);
    return put(a, p, getAt(en, p)!);
  },
};
/** How likely each kind of argument mistake is, for [base, adapter]. */
const MISTAKE_WEIGHTS: Record<string, [number, number]> = {
  float_int: [3, 0.5],
  drop_key: [2, 2],
  extra_key: [1.5, 0.5],
  wrong_value: [3, 3],
  number_off: [1, 2],
  as_string: [1, 0],
  bool_flip: [1, 1.5],
  list_change: [1, 1],
  localized: [3, 1],
  english_text: [2, 1],
};
function mistake(e: Kept, model: Model, r: Rng): Obj {
  const c: Ctx = { lang: e.lang, params: e.params, en: e.en, local: e.local, r };
  for (let i = 0; i < 20; i++) {
    const weights = Object.fromEntries(
      Object.entries(MISTAKE_WEIGHTS).map(([k, w]) => [k, w[model === "base" ? 0 : 1]]),
    );
    const b = MUTATIONS[r.weighted(weights)]!(e.args, c);
    if (b && canon(b) !== canon(e.args)) return b;
  }
  return MUTATIONS.extra_key!(e.args, c)!;
}
const wrongName = (e: Kept, r: Rng) =>
  r.chance(0.6)
    ? r.pick(TOOLS.find((t) => toolName(t) === e.name)!.slips)
    : r.pick(e.tools.filter((n) => n !== e.name));

// ---- What the models print --------------------------------------------------------------------

function renderOk(model: Model, name: string, args: Obj, lang: Lang, r: Rng): string {
  if (model === "adapter") return dump({ name, arguments: args }, { ascii: r.chance(0.3) });
  const prose = PROSE[lang !== "en" && r.chance(0.75) ? lang : "en"];
  const bare = dump({ name, arguments: args }),
    pretty = dump({ name, arguments: args }, { indent: 2 });
  const [before, after] = [r.pick(prose.before), r.pick(prose.after)];
  switch (
    r.weighted({ bare: 3, pretty: 1.5, fence: 2, prose: 2, prose_fence: 1, array: 0.5, tag: 1 })
  ) {
    case "bare":
      return bare;
    case "pretty":
      return pretty;
    case "fence":
      return "```json\n" + pretty + "\n```";
    case "prose":
      return `${before}\n\n${bare}`;
    case "prose_fence":
      return `${before}\n\n\`\`\`json\n${pretty}\n\`\`\`\n\n${after}`;
    case "array":
      return `[${bare}]`;
    default:
      return `<tool_call>\n${bare}\n</tool_call>`;
  }
}

function renderFailure(model: Model, name: string, args: Obj, lang: Lang, r: Rng): string {
  const kind = model === "adapter" ? r.weighted({ truncated: 2, extra_id: 1 }) : r.weighted({
    no_json: 3, // prose only
    trailing_comma: 2, // invalid_json from here ...
    single_quotes: 2,
    truncated: 2,
    bracket_prose: 1,
    py_literals: 1,
    extra_id: 2, // ... invalid_shape from here
    arguments_string: 2,
    wrapper: 1,
    parameters_key: 1,
    two_calls: 1,
  });
  const call = { name, arguments: args }, bare = dump(call);
  switch (kind) {
    case "no_json":
      return r.pick(PROSE[lang !== "en" && r.chance(0.75) ? lang : "en"].instead).replace(
        "TOOL",
        name,
      );
    case "trailing_comma":
      return bare.slice(0, -2) + ",}}";
    case "truncated": { // the generation hit max_new_tokens
      const s = model === "base" && r.chance(0.5) ? dump(call, { indent: 2 }) : bare;
      let cut = Math.floor(s.length * (0.4 + 0.5 * r.float()));
      if (/[\ud800-\udbff]/.test(s[cut - 1]!)) cut--;
      return s.slice(0, cut);
    }
    case "bracket_prose": // the span starts at "[TOOL_CALLS]", which is not JSON
      return `[TOOL_CALLS] [${bare}]`;
    case "py_literals":
      if (of(args, (v) => typeof v === "boolean").length) return dump(call, { pyLiterals: true });
      return dump(call, { py: true });
    case "single_quotes":
      return dump(call, { py: true });
    case "extra_id": {
      const id = Array.from({ length: 12 }, () => "0123456789abcdef"[r.int(16)]).join("");
      return dump({ id: `call_${id}`, ...call });
    }
    case "arguments_string":
      return dump({ name, arguments: dump(args) });
    case "wrapper":
      return dump({ type: "function", function: call });
    case "parameters_key":
      return dump({ name, parameters: args });
    default:
      return dump([call, call]);
  }
}

// ---- Simulate both models, correlated through shared per-example draws ----------------------------

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

const manifest: { example_id: string; prompt_sha256: string; prompt: string }[] = [];
const generations: Record<Model, Obj[]> = { base: [], adapter: [] };
for (const e of LANGS.flatMap((l) => keptByLang[l])) {
  const sha = await sha256(e.prompt);
  manifest.push({ example_id: e.id, prompt_sha256: sha, prompt: e.prompt });
  const r = new Rng(`plan/${e.id}`), root = new Rng(`difficulty/${e.root}`);
  const [rootArgs, rootName] = [root.float(), root.float()];
  const mix = (u: number) => (r.chance(ROOT_SHARE) ? u : r.float()); // hard roots are hard in every language
  const follow = (u: number) => (r.chance(ARM_SHARE) ? u : r.float()); // ... and for both models
  const uArgs = mix(rootArgs), uName = mix(rootName);
  const u = {
    base: { args: uArgs, name: uName },
    adapter: { args: follow(uArgs), name: follow(uName) },
  };
  const fails = { base: r.float(), adapter: r.float() }, same = r.chance(SAME_MISTAKE);
  let baseCall: { name: string; args: Obj } | null = null;
  for (const model of ["base", "adapter"] as const) {
    const [failRate, nameRate, argsRate] = RATES[model][e.lang], rm = new Rng(`${model}/${e.id}`);
    // When both models get something wrong, the adapter often makes the base's exact mistake.
    const prev = model === "adapter" && same ? baseCall : null;
    let name = e.name, args = e.args;
    if (u[model].name < nameRate) {
      name = prev && prev.name !== e.name ? prev.name : wrongName(e, rm);
    }
    if (u[model].args < argsRate) {
      args = prev && prev.args !== e.args ? prev.args : mistake(e, model, rm);
    }
    baseCall ??= { name, args };
    const output = fails[model] < failRate
      ? renderFailure(model, name, args, e.lang, rm)
      : renderOk(model, name, args, e.lang, rm);
    generations[model].push({ example_id: e.id, prompt_sha256: sha, output });
  }
}

// ---- Write -------------------------------------------------------------------------------------

const jsonl = (rows: object[]) =>
  rows.map((x) => dump(x as Obj, { compact: true }) + "\n").join("");
const out = (file: string, text: string) =>
  Deno.writeTextFile(new URL(file, import.meta.url), text);
const examples = LANGS.flatMap((l) => byLang[l]);
await out("examples.jsonl", jsonl(examples));
await out("prompts.jsonl", jsonl(manifest));
await out("generations.base.jsonl", jsonl(generations.base));
await out("generations.adapter.jsonl", jsonl(generations.adapter));
console.log(
  `examples: ${examples.length} rows, ${manifest.length} kept; ` +
    LANGS.map((l) => `${l} ${keptByLang[l].length}/${byLang[l].length}`).join(", "),
);
