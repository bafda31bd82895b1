/** The answer check as a score: the dataset's own check (contains / anyOf / notContains / regex). */

import { InputError } from "../../errors.ts";
import { checkAnswer } from "../dataset/answer-check.ts";
import type { AnswerCheck } from "../dataset/types.ts";
import type { AnswerScore } from "./score-types.ts";

/** An item whose answer check cannot run (a regex that does not compile): a dataset bug, named by item id. */
export class AnswerCheckSpecError extends InputError {
  constructor(itemId: string, check: AnswerCheck, cause: unknown) {
    super("ANSWER_CHECK_INVALID", `item ${itemId}: answer check cannot run: ${String(cause)}`, {
      context: { itemId, check },
      cause,
    });
  }
}

/** Null when the item has no answer check. */
export function scoreAnswer(itemId: string, check: AnswerCheck | undefined, answer: string): AnswerScore | null {
  if (!check) return null;
  try {
    const result = checkAnswer(check, answer);
    return { ok: result.pass, failed: result.failures };
  } catch (cause) {
    throw new AnswerCheckSpecError(itemId, check, cause);
  }
}
