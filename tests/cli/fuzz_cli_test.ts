// The CLI's seeded fuzz (fuzz_cli.ts) at the gate's size: every command on spoiled inputs and
// command lines ends with exit 0, 2 (a named error naming the file or flag) or, for a gate, 3;
// never a stack, an internal error or an "Uncaught". A long run of the same cases, and more:
//   deno run -A tests/cli/fuzz_cli.ts --cases 20000 --seed N
import { deepStrictEqual, ok } from "node:assert/strict";
import { fuzz, SCENARIOS, unspoiled } from "./fuzz_cli.ts";

/** The gate's cases: about 60 a command, some 15 s on one core. */
const CASES = 2000;

Deno.test("every fuzz scenario succeeds on its unspoiled inputs (0, or 0 or 3 with a gate)", async () => {
  const runs = await unspoiled();
  for (const s of SCENARIOS) {
    const r = runs[s.name]!;
    ok(r.code === 0 || (s.gate === true && r.code === 3), `${s.name}: exit ${r.code}: ${r.stderr}`);
  }
});

Deno.test(`${CASES} seeded fuzz cases of every command: exit 0, 2 naming the input or 3, never a crash`, async () => {
  const { failing, exits } = await fuzz({ seed: 0, cases: CASES });
  const shown = failing.map((r) =>
    `${r.scenario}: ${r.mutation}: ${r.problem}: assay ${r.args.join(" ")}\n${r.stderr}`
  );
  deepStrictEqual(shown, []);
  // The cases reach both sides: inputs still valid, and refusals.
  ok((exits[0] ?? 0) > CASES / 10 && (exits[2] ?? 0) > CASES / 3, JSON.stringify(exits));
});
