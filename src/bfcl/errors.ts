import { InputError, OnsetlabError } from "../errors.ts";

/**
 * Bad BFCL input: a missing folder or file, an unreadable file, a malformed line. The message names
 * the file (and line); `context` carries them for the record. The CLI exits with code 2.
 */
export class BfclInputError extends InputError {}

/** The replay provider was asked for a planner output it has no recording for (a miss is never a guess). */
export class BfclReplayMissError extends OnsetlabError {}

/** The pipeline did not run as the uplift needs (a model call failed, a run stopped): a harness fault. */
export class BfclUpliftError extends OnsetlabError {}
