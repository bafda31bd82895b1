/** The errors of the results store: a results folder that is not there or not what it should be. */

import { InputError } from "../../errors.ts";

/** A results folder that is not there or does not hold what it should. */
export class ResultsError extends InputError {}

/** A JSON-lines file of a run that is damaged before its last line (not a torn append): bad input, exit 2. */
export class CorruptRecordsError extends ResultsError {}
