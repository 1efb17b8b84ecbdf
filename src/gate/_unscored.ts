// The examples the gate's evaluation reports left unscored (`assay score --allow-missing`): the
// rules read only the scored ones, and the verdict's note says so.
import { unscoredNote } from "../report_check/mod.ts";
import type { GateInput } from "./verdict.ts";

/** The note for the reports of a gate's input, by the names the verdict gives them. */
export const gateUnscoredNote = (input: GateInput): string | undefined =>
  unscoredNote(
    "report" in input
      ? [["report", input.report]]
      : [["base report", input.base], ["candidate report", input.candidate]],
  );
