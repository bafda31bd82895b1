/** The report's and the gate's typed errors (the CLI maps InputError to exit 2, the rest to 1). */
import { InputError, OnsetlabError } from "../errors.ts";

/** A table builder produced a row that does not fit its columns: a bug in the report, not in the input. */
export class ReportTableError extends OnsetlabError {}

/** Runs that cannot be reported or gated together: another dataset, the same model × configuration twice, an incomplete run. */
export class RunSetError extends InputError {}

/** A baseline file that is missing, malformed, or made for another dataset or matrix. */
export class BaselineError extends InputError {}

/** A run's per-item outcomes cannot be read: no records (records.jsonl.gz) and no outcomes.json, or a damaged file. */
export class OutcomesError extends InputError {}

/** A run folder whose files do not agree (summary.json vs records.jsonl.gz or outcomes.json) or are malformed. */
export class RunFilesError extends InputError {}

/** The gate ran and at least one metric did not hold (exit 1). */
export class GateFailedError extends OnsetlabError {}
