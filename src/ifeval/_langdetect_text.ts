// langdetect's text preparation: URL and e-mail removal, Vietnamese normalization, space
// collapsing, Latin cleaning and the normalization of each character before n-grams are taken.
import { LANGDETECT_DATA } from "./_langdetect_profiles.generated.ts";

const URL_RE = /https?:\/\/[-_.?&~;+=/#0-9A-Za-z]{1,2076}/g;
const MAIL_RE = /[-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}/g;
const MAX_TEXT_LENGTH = 10000;

const tables = LANGDETECT_DATA.tables;
const LATIN1_EXCLUDED = new Set(tables.latin1_excluded);
const VI_BASE = [...tables.to_normalize_vi];
const VI_MARKS = [...tables.dmark_class];
const VI_TO = tables.normalized_vi.map((s) => [...s]);
const CJK = new Map<string, string>();
for (const cls of tables.cjk_classes) {
  const chars = [...cls];
  for (const ch of chars) CJK.set(ch, chars[0]!);
}

/** NGram.normalize_vi: a base letter followed by a combining mark becomes one precomposed letter. */
function normalizeVi(chars: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const a = VI_BASE.indexOf(chars[i]!);
    const m = i + 1 < chars.length ? VI_MARKS.indexOf(chars[i + 1]!) : -1;
    if (a >= 0 && m >= 0) {
      out.push(VI_TO[m]![a]!);
      i++;
    } else out.push(chars[i]!);
  }
  return out;
}

/** Detector.append and cleaning_text: the characters n-grams are taken from. */
export function prepareText(text: string): string[] {
  const cleaned = text.replace(URL_RE, " ").replace(MAIL_RE, " ");
  const chars = normalizeVi([...cleaned]);
  const kept: string[] = [];
  let pre = "";
  for (let i = 0; i < Math.min(chars.length, MAX_TEXT_LENGTH); i++) {
    const ch = chars[i]!;
    if (ch !== " " || pre !== " ") kept.push(ch);
    pre = ch;
  }
  let latin = 0, nonLatin = 0;
  for (const ch of kept) {
    if (ch >= "A" && ch <= "z") latin++;
    // Upstream also compares the block with a name, which never matches: every character from
    // U+0300 on counts as non-Latin.
    else if (ch.codePointAt(0)! >= 0x300) nonLatin++;
  }
  if (latin * 2 < nonLatin) return kept.filter((ch) => ch < "A" || ch > "z");
  return kept;
}

/** NGram.normalize: one character as langdetect sees it. */
export function normalizeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp <= 0x7f) {
    return (cp < 0x41 || (cp > 0x5a && cp < 0x61) || cp > 0x7a) ? " " : ch;
  }
  if (cp <= 0xff) return LATIN1_EXCLUDED.has(ch) ? " " : ch;
  if (cp >= 0x180 && cp <= 0x24f) {
    if (cp === 0x219) return "\u015f";
    if (cp === 0x21b) return "\u0163";
    return ch;
  }
  if (cp >= 0x2000 && cp <= 0x206f) return " ";
  if (cp >= 0x600 && cp <= 0x6ff) return cp === 0x6cc ? "\u064a" : ch;
  if (cp >= 0x1e00 && cp <= 0x1eff) return cp >= 0x1ea0 ? "\u1ec3" : ch;
  if (cp >= 0x3040 && cp <= 0x309f) return "\u3042";
  if (cp >= 0x30a0 && cp <= 0x30ff) return "\u30a2";
  if ((cp >= 0x3100 && cp <= 0x312f) || (cp >= 0x31a0 && cp <= 0x31bf)) return "\u3105";
  if (cp >= 0x4e00 && cp <= 0x9fff) return CJK.get(ch) ?? ch;
  if (cp >= 0xac00 && cp <= 0xd7af) return "\uac00";
  return ch;
}
