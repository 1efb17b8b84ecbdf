/**
 * Records by language slice, found in one pass: a slice's records are read from the index,
 * not by a scan of every record, so work per slice costs its own records.
 *
 * @module
 */

/**
 * The indices of each language's records, in record order.
 *
 * @param records The records.
 * @returns Each language met, with the indices of its records.
 */
export function indicesByLanguage(records: readonly { language: string }[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  records.forEach((r, i) =>
    (out.get(r.language) ?? out.set(r.language, []).get(r.language)!).push(i)
  );
  return out;
}
