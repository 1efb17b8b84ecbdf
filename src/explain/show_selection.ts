// What `assay show` takes to choose the units of a BFCL, IFEval, structured or suite run report.

/**
 * Which units of a report (BFCL entries, IFEval prompts, structured rows, suite runs) to show;
 * every filter given applies. What each filter reads depends on the report's kind (see each
 * kind's function, such as `showBfclEntries`); one a kind has no use for is refused.
 */
export interface ShowSelection {
  /** Only the units that failed (what failing is depends on the kind and on `metric`). */
  failing?: boolean;
  /** With `failing`: only the units that failed this metric (one the report has). */
  metric?: string;
  /** Only these units, by id (each must be in the report). */
  ids?: readonly string[];
  /** Only the units of this slice (one the report has). */
  slice?: string;
  /** At most this many units (a positive whole number; default all). */
  limit?: number;
}
