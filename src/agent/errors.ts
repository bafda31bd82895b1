/**
 * Errors the agent raises internally. Model failures and time limits end a run with `AgentResult.error`;
 * they are thrown only between the agent's own modules.
 */

import { InputError, OnsetlabError } from "../errors.ts";
import type { AgentStage } from "./types.ts";

export class AgentError extends OnsetlabError {}

/** A model request failed (provider error, timeout, exhausted script). */
export class ModelCallError extends AgentError {
  readonly stage: AgentStage;
  constructor(stage: AgentStage, cause: unknown) {
    super("MODEL_CALL_FAILED", `model call failed in ${stage}: ${describe(cause)}`, { context: { stage }, cause });
    this.stage = stage;
  }
}

/** The caller's signal fired or the run's total time limit passed. */
export class RunAbortedError extends AgentError {
  readonly stage: AgentStage;
  constructor(stage: AgentStage, reason: string) {
    super("RUN_ABORTED", `run stopped in ${stage}: ${reason}`, { context: { stage, reason } });
    this.stage = stage;
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A `decide` input names a tool (in a plan or rescue case) that is not among its tools. */
export class UnknownDecideToolError extends InputError {
  constructor(entry: string, tool: string) {
    super("UNKNOWN_TOOL", `${entry}: tool "${tool}" is not among the input's tools`, { context: { entry, tool } });
  }
}
