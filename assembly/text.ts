// The text being processed, error reporting, and byte -> UTF-16 offset conversion.

// Error codes: see abi_engine.ts.
export {
  E_EXPECTING_VALUE,
  E_EXPECTING_PROPERTY_NAME,
  E_EXPECTING_COLON,
  E_EXPECTING_COMMA,
  E_EXTRA_DATA,
  E_UNTERMINATED_STRING,
  E_INVALID_CONTROL_CHARACTER,
  E_INVALID_ESCAPE,
  E_INVALID_UNICODE_ESCAPE,
  E_INTEGER_TOO_LONG,
  E_NESTING_TOO_DEEP,
  E_MISMATCHED_BRACKET,
  E_UNCLOSED_SPAN,
} from "./abi_engine";

/** The first error met, or -1. */
export let errCode: i32 = -1;
/** Where it was met (a byte address inside the text). */
export let errPos: usize = 0;

/** Records an error and returns 0, the parser's failure position. */
export function fail(code: i32, pos: usize): usize {
  errCode = code;
  errPos = pos;
  return 0;
}

/** Start address of the current text (WTF-8 bytes). */
export let textStart: usize = 0;
/** End address of the current text. */
export let textEnd: usize = 0;
// True when the text is ASCII, so byte offsets are UTF-16 offsets.
let textAscii: bool = true;
// Incremental conversion: the UTF-16 offset of byte address `cacheByte`.
let cacheByte: usize = 0;
let cacheUnits: u32 = 0;

/** Makes `[start, end)` the current text; `units` is its length in UTF-16 code units. */
export function setText(start: usize, end: usize, units: u32): void {
  textStart = start;
  textEnd = end;
  textAscii = <usize> units == end - start;
  cacheByte = start;
  cacheUnits = 0;
  errCode = -1;
  errPos = 0;
}

/** The UTF-16 code-unit offset of byte address `p` in the current text. */
export function utf16Offset(p: usize): u32 {
  if (textAscii) return <u32> (p - textStart);
  if (p < cacheByte) {
    cacheByte = textStart;
    cacheUnits = 0;
  }
  cacheUnits += countUnits(cacheByte, p);
  cacheByte = p;
  return cacheUnits;
}

// UTF-16 code units encoded by the WTF-8 bytes [a, b): one per lead byte, two
// per 4-byte lead. Eight bytes at a time: a continuation byte is 10xxxxxx, a
// 4-byte lead is 11110xxx.
function countUnits(a: usize, b: usize): u32 {
  let n: u32 = 0;
  const high: u64 = 0x8080808080808080;
  while (a + 8 <= b) {
    const x = load<u64>(a);
    const cont = x & ~(x << 1) & high;
    const four = x & (x << 1) & (x << 2) & (x << 3) & high;
    n += 8 - <u32> popcnt(cont) + <u32> popcnt(four);
    a += 8;
  }
  while (a < b) {
    const c = load<u8>(a);
    if ((c & 0xc0) != 0x80) n++;
    if (c >= 0xf0) n++;
    a++;
  }
  return n;
}
