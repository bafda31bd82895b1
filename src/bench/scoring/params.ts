/** Parameter accuracy: per argument, and per whole call (name and every argument right). */

import type { DatasetItem } from "../dataset/types.ts";
import type { CallMatching } from "./call-match.ts";
import type { CountedCall } from "./calls.ts";
import type { ArgResult, ParamScore } from "./score-types.ts";

/**
 * Per-argument accuracy counts, over the gold calls that have a paired call (call-match.ts), every
 * parameter the matcher judged — given by the model, expected by the gold call, or required by the
 * schema — and how many of those it found right. A gold call with no call of its tool adds nothing
 * here (tool choice counts that miss). Whole-call accuracy counts gold calls strictly matched.
 */
export function scoreParams(item: DatasetItem, counted: readonly CountedCall[], matching: CallMatching): ParamScore {
  let argsCorrect = 0;
  let argsTotal = 0;
  const pairings = matching.pairings.map((pairing) => {
    const args: ArgResult[] = [];
    for (const [param, verdict] of pairing.verdict?.params ?? []) {
      args.push(verdict.valid ? { param, ok: true } : { param, ok: false, error: verdict.errorType });
    }
    argsTotal += args.length;
    argsCorrect += args.filter((arg) => arg.ok).length;
    return {
      expected: pairing.expected,
      tool: item.calls[pairing.expected]!.tool,
      actualSeq: pairing.actual >= 0 ? counted[pairing.actual]!.seq : null,
      correct: pairing.strict,
      args,
    };
  });
  return {
    argsCorrect,
    argsTotal,
    callsCorrect: pairings.filter((pairing) => pairing.correct).length,
    callsExpected: item.calls.length,
    pairings,
  };
}
