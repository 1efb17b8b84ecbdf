/**
 * XML validity: the share of outputs that are well-formed XML 1.0 with exactly one root element.
 *
 * The checker is a single linear pass with an explicit element stack, namespace-aware like lxml
 * (unbound prefixes, bad `xmlns` declarations and attributes that collide after namespace
 * expansion are errors). Any document type declaration is rejected, so no entity can be defined
 * or expanded: only the five predefined entities and character references are accepted.
 * See docs/xml.md for the rules, the error codes and the lxml differential test.
 *
 * @module
 */
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { scanXml, type XmlErrorCode } from "./_scan.ts";

export type { XmlErrorCode };

/** The verdict of {@linkcode checkXml} on one text. */
export interface XmlCheck {
  /** Whether the text is a well-formed XML document without a DOCTYPE. */
  wellFormed: boolean;
  /** Why it is not (absent when well-formed), e.g. `doctype` or `mismatched-end-tag`. */
  code?: XmlErrorCode;
  /** Where the first violation is, in UTF-16 units (absent when well-formed). */
  offset?: number;
  /** A short description of the violation (absent when well-formed). */
  message?: string;
}

/** The result of {@linkcode xmlValidity}: the rate plus counts by error code. */
export type XmlValidity = MetricValue & {
  /** Counts of the outputs that were not well-formed. */
  details: {
    /** Outputs rejected because they contain a document type declaration. */
    doctypeRejected: number;
    /** Outputs by error code (`doctype` included). */
    errors: Record<string, number>;
  };
};

/**
 * Checks that a text is one well-formed XML 1.0 document (namespace-aware, no DOCTYPE).
 *
 * @param text The text, e.g. a model output. A leading U+FEFF (byte order mark) is allowed.
 * @returns `{ wellFormed: true }`, or `{ wellFormed: false, code, offset, message }` for the
 *   first violation.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example Well-formed, a DOCTYPE, and a mismatched end tag
 * ```ts
 * import { checkXml } from "@assay/assay/xml";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(checkXml('<a x="1"><b>&lt;</b></a>'), { wellFormed: true });
 * assertEquals(checkXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>').code, "doctype");
 * assertEquals(checkXml("<a><b></a>"), {
 *   wellFormed: false,
 *   code: "mismatched-end-tag",
 *   offset: 6,
 *   message: "End tag </a> does not match <b>",
 * });
 * ```
 */
export function checkXml(text: string): XmlCheck {
  if (typeof text !== "string") {
    throw new TypeError(`checkXml() needs a string, got ${text === null ? "null" : typeof text}`);
  }
  const fault = scanXml(text);
  if (fault === null) return { wellFormed: true };
  return { wellFormed: false, code: fault.code, offset: fault.offset, message: fault.message };
}

/**
 * The share of outputs that are well-formed XML with one root element, DOCTYPE rejected.
 *
 * @param outputs Model outputs.
 * @returns `value = well-formed / all` (0 for no outputs), with the failures counted by code.
 * @throws {TypeError} If `outputs` is not an array or an entry is not a string.
 *
 * @example
 * ```ts
 * import { xmlValidity } from "@assay/assay/xml";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(xmlValidity(["<a><b>1</b></a>", "<a>", "<!DOCTYPE a><a/>", "<r/>"]), {
 *   value: 0.5,
 *   numerator: 2,
 *   denominator: 4,
 *   details: { doctypeRejected: 1, errors: { "unclosed-element": 1, doctype: 1 } },
 * });
 * ```
 */
export function xmlValidity(outputs: readonly string[]): XmlValidity {
  if (!Array.isArray(outputs)) throw new TypeError("xmlValidity() needs an array of strings");
  const errors: Record<string, number> = {};
  let ok = 0;
  for (let k = 0; k < outputs.length; k++) {
    const text: unknown = outputs[k];
    if (typeof text !== "string") {
      throw new TypeError(
        `xmlValidity() needs strings: outputs[${k}] is ${text === null ? "null" : typeof text}`,
      );
    }
    const fault = scanXml(text);
    if (fault === null) ok++;
    else errors[fault.code] = (errors[fault.code] ?? 0) + 1;
  }
  return {
    ...metricValue(ok, outputs.length),
    details: { doctypeRejected: errors.doctype ?? 0, errors },
  };
}
