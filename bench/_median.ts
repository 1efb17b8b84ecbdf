// The median the benches report: of an odd count the middle value, of an even count the mean of
// the two middle ones.

/** The median of `xs` (not empty). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
