// The checkers on a response's layout (IFEval's detectable_format:, detectable_content:,
// combination: and startend: instructions).
import { canonicalize } from "../engine/mod.ts";
import type { CheckerSpec } from "./_content_checks.ts";
import { literalPattern, plainText } from "./_kwargs.ts";
import { countBullets, countPlaceholders, titles } from "./_line_scans.ts";
import { D, DOT, pyLower, pyStrip, S, stripChars } from "./_python_text.ts";

const HIGHLIGHT = /\*[^\n*]*\*/gu;
const DOUBLE_HIGHLIGHT = /\*\*[^\n*]*\*\*/gu;
const CONSTRAINED = ["My answer is yes.", "My answer is no.", "My answer is maybe."];

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** Python's `str.removeprefix` / `removesuffix`. */
const removePrefix = (s: string, p: string) => s.startsWith(p) ? s.slice(p.length) : s;
const removeSuffix = (s: string, p: string) =>
  p !== "" && s.endsWith(p) ? s.slice(0, -p.length) : s;

/** A postscript marker as IFEval's pattern: its text lowered, `.` any character but "\n". */
function postscriptPattern(marker: string): RegExp {
  if (marker === "P.P.S") return new RegExp(`p\\.${S}?p\\.${S}?s`, "u");
  if (marker === "P.S.") return new RegExp(`p\\.${S}?s\\.`, "u");
  const parts = pyLower(marker).split(".").map((p) => literalPattern("postscript_marker", p));
  return new RegExp(parts.join(DOT), "u");
}

export const FORMAT_CHECKS: Record<string, CheckerSpec> = {
  "detectable_content:number_placeholders": {
    kwargs: ["num_placeholders"],
    build(k) {
      const n = k.count("num_placeholders");
      return (value) => countPlaceholders(value) >= n;
    },
  },
  "detectable_content:postscript": {
    kwargs: ["postscript_marker"],
    build(k) {
      // `\s*marker.*$` with MULTILINE matches wherever the marker does.
      const marker = k.text("postscript_marker", false);
      // Its `.` is any character; any other syntax is refused as written, before it is lowered.
      plainText("postscript_marker", marker, /[\^$*+?{}[\]\\|()]/);
      const pattern = postscriptPattern(pyStrip(marker));
      return (value) => pattern.test(pyLower(value));
    },
  },
  "detectable_format:number_bullet_lists": {
    kwargs: ["num_bullets"],
    build(k) {
      const n = k.count("num_bullets");
      return (value) => countBullets(value, "*") + countBullets(value, "-") === n;
    },
  },
  "detectable_format:constrained_response": {
    kwargs: [],
    build: () => (value) => {
      const v = pyStrip(value);
      return CONSTRAINED.some((option) => v.includes(option));
    },
  },
  "detectable_format:number_highlighted_sections": {
    kwargs: ["num_highlights"],
    build(k) {
      const n = k.count("num_highlights");
      return (value) => {
        let found = 0;
        for (const h of value.match(HIGHLIGHT) ?? []) {
          if (pyStrip(stripChars(h, "*", "both")) !== "") found++;
        }
        for (const h of value.match(DOUBLE_HIGHLIGHT) ?? []) {
          if (pyStrip(removeSuffix(removePrefix(h, "**"), "**")) !== "") found++;
        }
        return found >= n;
      };
    },
  },
  "detectable_format:multiple_sections": {
    kwargs: ["section_spliter", "num_sections"],
    build(k) {
      const splitter = pyStrip(k.text("section_spliter", false));
      const n = k.count("num_sections");
      const re = new RegExp(
        `${S}?${literalPattern("section_spliter", splitter)}${S}?${D}+${S}?`,
        "gu",
      );
      // re.split gives one more piece than there are matches.
      return (value) => count(value, re) >= n;
    },
  },
  "detectable_format:json_format": {
    kwargs: [],
    build: () => (value) => {
      let v = pyStrip(value);
      for (const fence of ["```json", "```Json", "```JSON", "```"]) v = removePrefix(v, fence);
      v = pyStrip(removeSuffix(v, "```"));
      return canonicalize(v).ok;
    },
  },
  "detectable_format:title": {
    kwargs: [],
    build: () => (value) =>
      titles(value).some((t) =>
        pyStrip(stripChars(stripChars(t, "<", "left"), ">", "right")) !== ""
      ),
  },
  "combination:two_responses": {
    kwargs: [],
    build: () => (value) => {
      const parts = value.split("******");
      const valid: string[] = [];
      for (let i = 0; i < parts.length; i++) {
        if (pyStrip(parts[i]!) === "") {
          if (i !== 0 && i !== parts.length - 1) return false;
        } else valid.push(parts[i]!);
      }
      return valid.length === 2 && pyStrip(valid[0]!) !== pyStrip(valid[1]!);
    },
  },
  "combination:repeat_prompt": {
    kwargs: ["prompt_to_repeat"],
    build(k) {
      const prompt = pyLower(pyStrip(k.text("prompt_to_repeat")));
      return (value) => pyLower(pyStrip(value)).startsWith(prompt);
    },
  },
  "startend:end_checker": {
    kwargs: ["end_phrase"],
    build(k) {
      const phrase = pyLower(pyStrip(pyStrip(k.text("end_phrase", false))));
      return (value) => pyLower(stripChars(pyStrip(value), '"', "both")).endsWith(phrase);
    },
  },
  "startend:quotation": {
    kwargs: [],
    build: () => (value) => {
      const v = [...pyStrip(value)];
      return v.length > 1 && v[0] === '"' && v[v.length - 1] === '"';
    },
  },
};
