// One rule for a public function's options, everywhere: an object, or left out. Anything else,
// `null` among them, is the named TypeError of checkOptions, given before the function reads
// anything else: not the defaults in silence (`forScoring("hermes", "numeric")` compared numbers
// exactly) and not a TypeError from inside ("Cannot read properties of null"). The functions are
// every exported function, method and constructor of every entry point in deno.json whose
// parameter is named `options`, as `deno doc` lists them, so that a new one is checked too.
import { ok, strictEqual } from "node:assert/strict";
import { createEngine, type Engine } from "../../src/engine/mod.ts";

const root = new URL("../../", import.meta.url);

interface Callable {
  entry: string;
  name: string;
  member?: string;
  constructor: boolean;
  before: number; // the parameters before `options`
}

/** What deno doc says each entry point exports that takes a parameter named `options`. */
async function callables(): Promise<Callable[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const entries = Object.entries(config.exports as Record<string, string>)
    .filter(([k]) => k !== "./cli")
    .map(([, v]) => v.replace("./dist/", "./").replace(/\.js$/, ".ts"));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entries],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  ok(out.success, new TextDecoder().decode(out.stderr));
  const doc = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    nodes: Record<string, { symbols: { name: string; declarations: Declaration[] }[] }>;
  };
  type Param = { kind: string; name?: string; left?: Param };
  type Declaration = {
    kind: string;
    def?: {
      params?: Param[];
      constructors?: { params: Param[] }[];
      methods?: { name: string; isStatic?: boolean; functionDef: { params: Param[] } }[];
    };
  };
  const nameOf = (p: Param): string | undefined => p.kind === "assign" ? nameOf(p.left!) : p.name;
  const at = (params: Param[]) => params.findIndex((p) => nameOf(p) === "options");
  const found = new Map<string, Callable>();
  const add = (c: Callable) => found.set(`${c.name}.${c.member ?? ""}.${c.constructor}`, c);
  for (const [file, { symbols }] of Object.entries(doc.nodes)) {
    const entry = file.replace(root.href, "./");
    for (const { name, declarations } of symbols) {
      for (const d of declarations) {
        if (d.kind === "function" && at(d.def?.params ?? []) >= 0) {
          add({ entry, name, constructor: false, before: at(d.def!.params!) });
        }
        if (d.kind !== "class") continue;
        for (const c of d.def?.constructors ?? []) {
          if (at(c.params) >= 0) add({ entry, name, constructor: true, before: at(c.params) });
        }
        for (const m of d.def?.methods ?? []) {
          const i = at(m.functionDef.params);
          if (i >= 0) add({ entry, name, member: m.name, constructor: false, before: i });
        }
      }
    }
  }
  return [...found.values()];
}

// The error classes take the `options` of Error (ErrorOptions: `{ cause }`), which the platform
// reads; a class whose methods take options is made here, for its methods.
const ERROR_OPTIONS = /Error$/;
const INSTANCES: Record<string, () => unknown> = {
  Engine: (): Engine => createEngine({ engine: "ts" }),
};

Deno.test("every public function refuses options that are neither an object nor left out, null among them", async () => {
  const all = await callables();
  ok(all.length >= 60, `${all.length} functions with options`);
  const missed: string[] = [];
  let checked = 0;
  for (const c of all) {
    if (ERROR_OPTIONS.test(c.name) && c.constructor) continue;
    const mod = await import(new URL(c.entry, root).href);
    const label = `${c.entry} ${c.name}${c.member ? `.${c.member}` : ""}`;
    const target = mod[c.name];
    ok(target !== undefined, `${label} is not exported by its entry point`);
    for (const [value, type] of [[null, "null"], ["x", "string"], [7, "number"]] as const) {
      const args = [...Array(c.before).fill(undefined), value];
      let error: unknown;
      try {
        let r: unknown;
        if (c.constructor) r = new target(...args);
        else if (c.member) {
          const make = INSTANCES[c.name];
          ok(make, `${label}: add a way to make a ${c.name} to INSTANCES`);
          const self = make() as Record<string, (...a: unknown[]) => unknown>;
          r = self[c.member]!(...args);
        } else r = target(...args);
        if (r instanceof Promise) await r;
        // An async generator checks its arguments when it is first asked for a value.
        const next = (r as AsyncGenerator | undefined)?.next;
        if (typeof next === "function" && Symbol.asyncIterator in Object(r)) await next.call(r);
      } catch (e) {
        error = e;
      }
      // (createEngine's message for a string shows how to ask for the engine by its name.)
      const expected = new RegExp(`^Expected an object of options\\b.*, got ${type}$`);
      if (!(error instanceof TypeError) || !expected.test(error.message)) {
        missed.push(`${label} with ${type}: ${error === undefined ? "no error" : String(error)}`);
      }
      checked++;
    }
  }
  strictEqual(missed.join("\n"), "");
  ok(checked >= 180, `${checked} calls`);
});
