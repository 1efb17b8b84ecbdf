// Retry policy of the judge: exponential backoff with seeded jitter, Retry-After and a
// concurrency limit.
import { Sfc32 } from "../../engine/mod.ts";

/** Limits how many tasks hold a slot at once (FIFO hand-over). */
export class Semaphore {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(slots: number) {
    this.#free = slots;
  }

  /** Waits for a slot. */
  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a slot back (to the longest waiter, if any). */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/** Seeded jitter for the backoff: sfc32 draws mapped to [0, 1). */
export class Backoff {
  #rng: Sfc32;

  constructor(seed: number, readonly baseMs: number, readonly maxMs: number) {
    this.#rng = new Sfc32(seed);
  }

  /**
   * The delay before retry `k` (0-based): "equal jitter", uniform in [c/2, c) where
   * c = min(maxMs, baseMs · 2^k), floored to whole milliseconds.
   */
  delay(k: number): number {
    const cap = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(k, 52));
    const u = this.#rng.nextUint32() / 0x100000000;
    return Math.floor(cap / 2 + (cap / 2) * u);
  }
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/**
 * A `Retry-After` header value as a delay in ms from `nowMs`: delay-seconds, or an HTTP-date
 * (IMF-fixdate parsed exactly; the obsolete RFC 850 and asctime forms through `Date.parse`).
 * A date in the past gives 0; an unparseable value gives undefined.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  let at: number;
  const m = IMF_FIXDATE.exec(v);
  if (m) {
    const month = MONTHS.indexOf(m[2]!);
    if (month < 0) return undefined;
    at = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  } else if (
    /^[A-Za-z]{3,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$|^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/
      .test(v)
  ) {
    at = Date.parse(v.endsWith("GMT") ? v : v + " GMT");
  } else return undefined;
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, at - nowMs);
}
