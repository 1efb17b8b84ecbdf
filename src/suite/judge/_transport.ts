// One HTTP exchange of the judge: a POST that never follows a redirect (the request carries the
// key, and a redirect would hand it to whatever origin the Location names), whose response body
// is read from the stream up to a cap and cut there, all under one timer.

/** How one HTTP exchange ended. */
export type Exchange =
  | {
    kind: "response";
    status: number;
    headers: Headers;
    body: string;
    /** Whether the body was cut at the cap (only for a non-2xx: a 2xx is `too_large`). */
    cut: boolean;
  }
  | {
    kind: "redirect";
    /** The 3xx status; undefined for an opaque redirect or one the fetch followed. */
    status?: number;
    location: string | null;
    /** The injected fetch followed the redirect although asked not to. */
    followed: boolean;
  }
  | { kind: "too_large"; status: number }
  | { kind: "timeout" }
  | { kind: "network_error"; message: string };

/** The most bytes of a non-2xx body that are read: only an excerpt of it is ever shown. */
export const ERROR_BODY_BYTES = 65536;

/**
 * Reads a body up to `limit` bytes; one byte more cancels the stream and reports the cut (with
 * the bytes read only when `keepCut`: a cut 2xx body is never looked at).
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  keepCut: boolean,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (body === null) return { bytes: new Uint8Array(0), cut: false };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      parts.push(value.subarray(0, limit - size));
      size = limit;
      cut = true;
      // Not awaited: the connection is dropped, and nothing more is read.
      reader.cancel().catch(() => {});
      break;
    }
    parts.push(value);
    size += value.byteLength;
  }
  if (cut && !keepCut) return { bytes: new Uint8Array(0), cut };
  if (parts.length === 1) return { bytes: parts[0]!, cut };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return { bytes, cut };
}

/**
 * POSTs a JSON body with `redirect: "manual"` and reads the response, aborting after `timeoutMs`
 * (the timer covers the body too). A 3xx with a Location, an opaque redirect, or a response the
 * fetch reached through a redirect is a `redirect`, its body unread. A 2xx body over `maxBytes`
 * (by its Content-Length, or as it streams) is `too_large`; any other body is read up to
 * `min(maxBytes, ERROR_BODY_BYTES)` and cut there. Never throws.
 */
export async function timedPost(
  fetchFn: typeof fetch,
  url: string,
  init: { headers: Record<string, string>; body: string },
  limits: { timeoutMs: number; maxBytes: number },
): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  try {
    const res = await fetchFn(url, {
      method: "POST",
      headers: init.headers,
      body: init.body,
      signal: controller.signal,
      redirect: "manual",
    });
    const location = res.headers.get("location");
    const is3xx = res.status >= 300 && res.status < 400 && location !== null;
    if (res.type === "opaqueredirect" || res.redirected === true || is3xx) {
      res.body?.cancel().catch(() => {});
      return {
        kind: "redirect",
        ...(is3xx && !res.redirected ? { status: res.status } : {}),
        location,
        followed: res.redirected === true,
      };
    }
    const ok = res.status >= 200 && res.status < 300;
    const declared = res.headers.get("content-length");
    if (ok && declared !== null && /^\d+$/.test(declared) && Number(declared) > limits.maxBytes) {
      res.body?.cancel().catch(() => {});
      return { kind: "too_large", status: res.status };
    }
    const limit = ok ? limits.maxBytes : Math.min(limits.maxBytes, ERROR_BODY_BYTES);
    const { bytes, cut } = await readCapped(res.body, limit, !ok);
    if (ok && cut) return { kind: "too_large", status: res.status };
    const body = new TextDecoder().decode(bytes);
    return { kind: "response", status: res.status, headers: res.headers, body, cut };
  } catch (e) {
    if (timedOut) return { kind: "timeout" };
    return {
      kind: "network_error",
      message: e instanceof Error ? `${e.name}: ${e.message}` : "error",
    };
  } finally {
    clearTimeout(timer);
  }
}
