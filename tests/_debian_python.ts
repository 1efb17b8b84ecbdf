// Python oracles from Debian packages (SciPy, statsmodels, jsonschema, lxml).
//
// The oracles run with Debian's interpreter, /usr/bin/python3, which gets its modules from apt
// (`python3-scipy`, `python3-jsonschema`, `python3-lxml`); a python3 earlier on PATH (pyenv, a
// venv) may lack them. `ensureDebianModule()` checks that a probe script runs there and, when it
// does not and we are root on a machine with apt-get (as in CI), installs the package. Otherwise
// it fails, saying what to install.
//
// Needs --allow-run (python3, apt-get) and --allow-sys (uid).

/** The interpreter that runs the oracles. */
export const PYTHON = "/usr/bin/python3";

const APT_GET = "/usr/bin/apt-get";
const dec = new TextDecoder();

async function run(
  cmd: string,
  args: string[],
  inherit = false,
): Promise<{ ok: boolean; out: string }> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      stdin: "null",
      stdout: inherit ? "inherit" : "piped",
      stderr: inherit ? "inherit" : "piped",
      env: { DEBIAN_FRONTEND: "noninteractive" },
    }).output();
    const text = inherit ? "" : dec.decode(out.stdout) + dec.decode(out.stderr);
    return { ok: out.success, out: text };
  } catch (e) {
    // The command itself is missing (NotFound) or may not be run.
    return { ok: false, out: e instanceof Error ? e.message : String(e) };
  }
}

async function probe(script: string): Promise<string | undefined> {
  const r = await run(PYTHON, ["-c", script]);
  return r.ok ? r.out.trim() : undefined;
}

// apt-get must not run twice at once: installs are chained.
let aptQueue: Promise<unknown> = Promise.resolve();
const ready = new Map<string, Promise<string>>();

/**
 * Makes sure `/usr/bin/python3` runs `probe` (a script that imports the module and prints its
 * version), installing the Debian package `aptPackage` when it does not and we are root.
 * Resolves to what the probe printed.
 *
 * @throws {Error} If the module is missing and cannot be installed here.
 */
export function ensureDebianModule(aptPackage: string, probeScript: string): Promise<string> {
  const key = `${aptPackage}\n${probeScript}`;
  let p = ready.get(key);
  if (p) return p;
  p = (async () => {
    const have = await probe(probeScript);
    if (have !== undefined) return have;
    const uid = Deno.build.os === "windows" ? null : Deno.uid();
    const hasApt = await Deno.stat(APT_GET).then(() => true, () => false);
    if (uid !== 0 || !hasApt) {
      throw new Error(
        `${aptPackage} is needed: \`${PYTHON} -c "${probeScript}"\` failed, and ` +
          (hasApt ? "we are not root, so it cannot be installed here" : "there is no apt-get") +
          `. Install it, e.g. \`sudo apt-get install -y --no-install-recommends ${aptPackage}\`` +
          ` (Debian/Ubuntu), so that ${PYTHON} can use it.`,
      );
    }
    const install = async () => {
      console.error(`${aptPackage} is missing for ${PYTHON}: installing it with apt-get...`);
      // Wait for another apt/dpkg process (up to 10 min) rather than failing on its lock.
      const lock = ["-o", "DPkg::Lock::Timeout=600"];
      const update = await run(APT_GET, [...lock, "update"], true);
      if (!update.ok) throw new Error(`\`apt-get update\` failed; cannot install ${aptPackage}`);
      const inst = await run(
        APT_GET,
        [...lock, "install", "-y", "--no-install-recommends", aptPackage],
        true,
      );
      if (!inst.ok) throw new Error(`\`apt-get install ${aptPackage}\` failed`);
    };
    const step = aptQueue.then(install, install);
    aptQueue = step.catch(() => {});
    await step;
    const now = await probe(probeScript);
    if (now === undefined) {
      throw new Error(`${aptPackage} was installed, but ${PYTHON} still cannot use it`);
    }
    return now;
  })();
  ready.set(key, p);
  // A failure is not cached: a later call tries again.
  p.catch(() => ready.delete(key));
  return p;
}

/**
 * Makes sure `path` exists, installing the Debian package `aptPackage` when it does not and we
 * are root (for oracles that are programs, such as PostgreSQL's `initdb`).
 *
 * @throws {Error} If the program is missing and cannot be installed here.
 */
export function ensureDebianProgram(aptPackage: string, path: string): Promise<string> {
  return ensureDebianModule(
    aptPackage,
    `import os, sys; sys.exit(0 if os.path.exists(${JSON.stringify(path)}) else 1)`,
  );
}

/** Makes sure Debian's python3 can import SciPy; resolves to "<scipy version> <numpy version>". */
export function ensureScipy(): Promise<string> {
  return ensureDebianModule(
    "python3-scipy",
    "import numpy, scipy, scipy.stats; print(scipy.__version__, numpy.__version__)",
  );
}

/** Makes sure Debian's python3 can import statsmodels; resolves to its version. */
export function ensureStatsmodels(): Promise<string> {
  return ensureDebianModule(
    "python3-statsmodels",
    "import statsmodels; from statsmodels.stats.multitest import multipletests; " +
      "print(statsmodels.__version__)",
  );
}

/** Makes sure Debian's python3 can import jsonschema; resolves to its version. */
export function ensureJsonschema(): Promise<string> {
  return ensureDebianModule(
    "python3-jsonschema",
    "from importlib.metadata import version; from jsonschema import Draft202012Validator; " +
      "print(version('jsonschema'))",
  );
}

/** Makes sure Debian's python3 can import lxml; resolves to its version. */
export function ensureLxml(): Promise<string> {
  return ensureDebianModule(
    "python3-lxml",
    "import lxml.etree as e; print('.'.join(map(str, e.LXML_VERSION)))",
  );
}

/**
 * Runs a Python oracle once over a whole corpus: each of `lines` (already JSON text) goes to its
 * stdin as one line, and it must answer with exactly one line per input. Writing runs while the
 * output is read, so a full pipe never deadlocks the two sides.
 *
 * @param args The interpreter's arguments: a script path, or `["-c", source]`.
 * @param lines One JSON text per case.
 * @returns The oracle's answer lines, in order.
 * @throws {Error} If the oracle fails or answers a different number of lines.
 */
export async function runLineOracle(args: string[], lines: readonly string[]): Promise<string[]> {
  const child = new Deno.Command(PYTHON, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writing = (async () => {
    const writer = child.stdin.getWriter();
    const enc = new TextEncoder();
    for (let i = 0; i < lines.length; i += 1000) {
      await writer.write(enc.encode(lines.slice(i, i + 1000).join("\n") + "\n"));
    }
    await writer.close();
  })();
  const [out] = await Promise.all([child.output(), writing]);
  if (!out.success) {
    throw new Error(`The oracle ${args.join(" ").slice(0, 80)} failed: ${dec.decode(out.stderr)}`);
  }
  const answers = dec.decode(out.stdout).split("\n");
  if (answers.at(-1) === "") answers.pop();
  if (answers.length !== lines.length) {
    throw new Error(`The oracle answered ${answers.length} lines for ${lines.length} cases`);
  }
  return answers;
}
