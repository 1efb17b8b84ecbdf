// The committed suite demo (samples/suite_demo) as the suite CLI tests run it.

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;

/** The goldens, traces and catalog flags of `suite run` for the files in `dir` (the demo's). */
export function suiteInputs(dir = demo): string[] {
  const files = { goldens: "goldens.jsonl", traces: "traces.jsonl", catalog: "catalog.json" };
  return Object.entries(files).flatMap(([flag, file]) => [`--${flag}`, `${dir}/${file}`]);
}

/** `suite run` of the demo (or of `suite` on the demo's data) into `store`, judges skipped. */
export function demoRunArgs(store: string, suite = `${demo}/suite.yaml`): string[] {
  return ["suite", "run", suite, ...suiteInputs(), "--store", store, "--no-judge", "--quiet"];
}
