// Code-point order for strings, the order CONTRACT §2 uses for keys and that Python's sorted()
// uses: a surrogate pair is one astral code point, a lone surrogate is its own code point.

/** Compares two strings by code point (JavaScript's `<` compares UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  const aLeft = i < a.length;
  const bLeft = j < b.length;
  return aLeft === bLeft ? 0 : aLeft ? 1 : -1;
}
