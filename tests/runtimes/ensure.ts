/**
 * Installs the pinned test runtimes (Bun, workerd) from `package-lock.json`
 * and says where their binaries are.
 *
 * A fresh clone has no `tests/runtimes/node_modules`; this runs
 * `npm ci --prefix tests/runtimes --no-audit --no-fund --ignore-scripts` then,
 * and again whenever the lockfile changed since the last install (a stamp
 * holding the lockfile's SHA-256 is kept inside `node_modules`). The binaries
 * are taken straight from the packages' optional platform dependencies
 * (`@oven/bun-<os>-<arch>`, `@cloudflare/workerd-<os>-<arch>`) on the npm
 * registry. Install scripts are not run: they would only move those binaries
 * (or fetch them from the registry when the platform package is missing), and
 * npm is moving towards refusing unapproved install scripts.
 *
 * Run directly to install and print the versions:
 * `deno run -A tests/runtimes/ensure.ts`.
 *
 * @module
 */

const HERE = new URL("./", import.meta.url);
const DIR = decodeURIComponent(HERE.pathname).replace(/\/$/, "");
const LOCK = new URL("package-lock.json", HERE);
const NODE_MODULES = `${DIR}/node_modules`;
const STAMP = `${NODE_MODULES}/.assay-lock-sha256`;
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const VERSION_TIMEOUT_MS = 30_000;

/** Paths and versions of the installed runtimes. */
export interface TestRuntimes {
  /** Absolute path of the `bun` binary. */
  bun: string;
  /** What `bun --version` printed. */
  bunVersion: string;
  /** Absolute path of the `workerd` binary. */
  workerd: string;
  /** What `workerd --version` printed, and the npm package version. */
  workerdVersion: string;
  /** The version of the `workerd` npm package, e.g. `1.20261117.1`. */
  workerdPackageVersion: string;
}

/** Raised when the runtimes cannot be installed or do not run. */
export class RuntimeInstallError extends Error {
  /**
   * @param message What failed.
   * @param options The underlying error, if any.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RuntimeInstallError";
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/** Runs a command with a deadline; returns its trimmed stdout or throws with its stderr. */
async function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
): Promise<string> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, timeoutMs);
  try {
    const out = await child.output();
    const stdout = new TextDecoder().decode(out.stdout).trim();
    if (!out.success) {
      const stderr = new TextDecoder().decode(out.stderr).trim();
      const why = out.signal
        ? `killed by ${out.signal} (timeout ${timeoutMs} ms?)`
        : `exit ${out.code}`;
      throw new RuntimeInstallError(
        `${cmd} ${args.join(" ")} failed (${why}): ${stderr.slice(-2000)}`,
      );
    }
    return stdout;
  } finally {
    clearTimeout(timer);
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    // The placeholder `bun.exe` in the `bun` tarball is a small text file.
    return info.isFile && info.size > 1_000_000 &&
      ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Finds a real binary: in the platform package (install scripts not run), or
 * in the main package (an older install whose postinstall moved it there).
 */
async function findBinary(candidates: string[], what: string): Promise<string> {
  for (const rel of candidates) {
    const path = `${NODE_MODULES}/${rel}`;
    if (await isExecutable(path)) return path;
  }
  throw new RuntimeInstallError(
    `No ${what} binary under ${NODE_MODULES} (looked at ${candidates.join(", ")})`,
  );
}

function platformTag(): { bun: string[]; workerd: string[] } {
  const { os, arch } = Deno.build;
  const a = arch === "x86_64" ? "x64" : "aarch64";
  const w = arch === "x86_64" ? "64" : "arm64";
  const bunOs = os === "windows" ? "windows" : os;
  const exe = os === "windows" ? ".exe" : "";
  return {
    bun: [
      `@oven/bun-${bunOs}-${a}/bin/bun${exe}`,
      `@oven/bun-${bunOs}-${a}-baseline/bin/bun${exe}`,
      `@oven/bun-${bunOs}-${a}-musl/bin/bun${exe}`,
      `bun/bin/bun.exe`,
    ],
    workerd: [
      `@cloudflare/workerd-${os === "windows" ? "windows" : os}-${w}/bin/workerd${exe}`,
      `workerd/bin/workerd${exe}`,
    ],
  };
}

/**
 * Installs the runtimes if needed and returns their binaries.
 *
 * @param options `log` receives progress lines (default: stderr).
 * @returns The binaries and their versions.
 * @throws {RuntimeInstallError} When `npm ci` fails or a binary does not run.
 */
export async function ensureRuntimes(
  options: { log?: (line: string) => void } = {},
): Promise<TestRuntimes> {
  const log = options.log ?? ((line: string) => console.error(line));
  const lockHash = await sha256Hex(await Deno.readFile(LOCK));
  const install = async (why: string): Promise<void> => {
    log(`${why}: npm ci --prefix ${DIR} --ignore-scripts`);
    await Deno.remove(STAMP).catch(() => {});
    await run(
      "npm",
      ["ci", "--prefix", DIR, "--no-audit", "--no-fund", "--ignore-scripts"],
      INSTALL_TIMEOUT_MS,
    );
    await Deno.writeTextFile(STAMP, lockHash + "\n");
  };
  const stamp = (await readText(STAMP))?.trim();
  let installed = false;
  if (stamp !== lockHash) {
    await install(
      stamp === undefined
        ? "Installing test runtimes"
        : "Test runtimes are stale (package-lock.json changed)",
    );
    installed = true;
  }
  const tags = platformTag();
  let bun: string;
  let workerd: string;
  try {
    bun = await findBinary(tags.bun, "bun");
    workerd = await findBinary(tags.workerd, "workerd");
  } catch (e) {
    if (installed) throw e;
    // node_modules was changed by hand since the last install: reinstall once.
    await install("Test runtimes are incomplete");
    bun = await findBinary(tags.bun, "bun");
    workerd = await findBinary(tags.workerd, "workerd");
  }
  const [bunVersion, workerdVersion] = await Promise.all([
    run(bun, ["--version"], VERSION_TIMEOUT_MS),
    run(workerd, ["--version"], VERSION_TIMEOUT_MS),
  ]);
  const pkg = JSON.parse(await Deno.readTextFile(`${NODE_MODULES}/workerd/package.json`));
  return {
    bun,
    bunVersion,
    workerd,
    workerdVersion: `${workerdVersion} (npm workerd@${pkg.version})`,
    workerdPackageVersion: String(pkg.version),
  };
}

if (import.meta.main) {
  const rt = await ensureRuntimes();
  console.log(`bun ${rt.bunVersion} at ${rt.bun}`);
  console.log(`${rt.workerdVersion} at ${rt.workerd}`);
}
