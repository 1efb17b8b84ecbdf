/**
 * The files of a BFCL category's run, as `checkBfcl` reads them: each a name, for
 * messages, and a text of JSON lines.
 *
 * @module
 */
/** A file's name and text. */
export interface BfclSource {
  /** The file's name, for messages. */
  name: string;
  /** The file's text (JSON lines); a leading BOM is dropped, as the CLI drops it. */
  text: string;
}

/** The files of one category's run. */
export interface BfclFiles {
  /** The questions (BFCL's data file); required except for relevance. */
  questions?: BfclSource;
  /** The possible answers; required except for relevance. */
  answers?: BfclSource;
  /** The model's results. */
  results: BfclSource;
}
