// SciPy for the statistical cross-checks (tests/scipy_agreement_test.ts, bench/bootstrap_bench.ts).
//
// SciPy is run with Debian's interpreter, /usr/bin/python3, which gets SciPy from apt
// (`python3-scipy`); a python3 earlier on PATH (pyenv, a venv) may lack it. `ensureScipy()`
// checks that `import scipy` works there and, when it does not and we are root on a machine
// with apt-get (as in CI), installs `python3-scipy`. Otherwise it fails, saying what to install.
//
// Needs --allow-run (python3, apt-get) and --allow-sys (uid).

/** The interpreter that runs SciPy. */
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

async function scipyVersion(): Promise<string | undefined> {
  const r = await run(PYTHON, [
    "-c",
    "import numpy, scipy, scipy.stats; print(scipy.__version__, numpy.__version__)",
  ]);
  return r.ok ? r.out.trim() : undefined;
}

let ready: Promise<string> | undefined;

/**
 * Makes sure `/usr/bin/python3` can import SciPy, installing `python3-scipy` with apt-get
 * when it cannot and we are root. Resolves to "<scipy version> <numpy version>".
 *
 * @throws {Error} If SciPy is missing and cannot be installed here.
 */
export function ensureScipy(): Promise<string> {
  ready ??= (async () => {
    const have = await scipyVersion();
    if (have) return have;
    const uid = Deno.build.os === "windows" ? null : Deno.uid();
    const hasApt = await Deno.stat(APT_GET).then(() => true, () => false);
    if (uid !== 0 || !hasApt) {
      throw new Error(
        `SciPy is needed: \`${PYTHON} -c "import scipy"\` failed, and ` +
          (hasApt ? "we are not root, so it cannot be installed here" : "there is no apt-get") +
          `. Install it, e.g. \`sudo apt-get install -y --no-install-recommends python3-scipy\`` +
          ` (Debian/Ubuntu), so that ${PYTHON} can import scipy.`,
      );
    }
    console.error(`SciPy is missing for ${PYTHON}: installing python3-scipy with apt-get...`);
    // Wait for another apt/dpkg process (up to 10 min) rather than failing on its lock.
    const lock = ["-o", "DPkg::Lock::Timeout=600"];
    const update = await run(APT_GET, [...lock, "update"], true);
    if (!update.ok) throw new Error("`apt-get update` failed; cannot install python3-scipy");
    const install = await run(
      APT_GET,
      [...lock, "install", "-y", "--no-install-recommends", "python3-scipy"],
      true,
    );
    if (!install.ok) throw new Error("`apt-get install python3-scipy` failed");
    const now = await scipyVersion();
    if (!now) {
      throw new Error(`python3-scipy was installed, but ${PYTHON} still cannot import scipy`);
    }
    return now;
  })();
  // A failure is not cached: a later call tries again.
  ready.catch(() => (ready = undefined));
  return ready;
}
