// The result type of the XML scanner: an error code, where, and a short message.

/** Why a text is not well-formed XML (see docs/xml.md). */
export type XmlErrorCode =
  | "no-root"
  | "invalid-char"
  | "xml-declaration"
  | "doctype"
  | "markup"
  | "tag"
  | "attribute"
  | "duplicate-attribute"
  | "mismatched-end-tag"
  | "unclosed-element"
  | "reference"
  | "comment"
  | "pi"
  | "cdata"
  | "cdata-end-in-text"
  | "content-outside-root"
  | "multiple-roots"
  | "namespace"
  | "xml-id";

/** A well-formedness violation; thrown inside the scanner and caught by `scanXml`. */
export class XmlFault {
  constructor(
    readonly code: XmlErrorCode,
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** Cuts a piece of the input short for a message. */
export function excerpt(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
