/** End state: the state checks (named or tool-call) as the runner ran them, with `negate` applied here. */

import { canonicalJson } from "../../json.ts";
import { checkLabel, checkServer } from "../dataset/state-checks.ts";
import type { StateCheckSpec } from "../dataset/types.ts";
import type { StateCheckResult, StateScore } from "./score-types.ts";
import type { StateCheckOutcome } from "./types.ts";

/**
 * Each of the item's checks is paired with the runner's outcome for an equal spec (the same check
 * with the same negate). A check the runner reported nothing for fails ("not run"), so a
 * runner bug can never pass an item. Null when the item has no checks.
 */
export function scoreState(
  specs: readonly StateCheckSpec[] | undefined,
  outcomes: readonly StateCheckOutcome[],
): StateScore | null {
  if (!specs || specs.length === 0) return null;
  const unused = outcomes.map((outcome) => ({ outcome, key: specKey(outcome.spec) }));
  const checks = specs.map((spec): StateCheckResult => {
    const key = specKey(spec);
    const index = unused.findIndex((candidate) => candidate.key === key);
    const negate = spec.negate === true;
    const server = checkServer(spec);
    const expect = checkLabel(spec);
    if (index < 0) return { server, expect, negate, pass: false, ok: false, detail: "not run" };
    const { outcome } = unused.splice(index, 1)[0]!;
    const pass = outcome.pass === true;
    return {
      server,
      expect,
      negate,
      pass,
      ok: !outcome.notRun && (negate ? !pass : pass),
      detail: outcome.detail,
    };
  });
  return { checks, ok: checks.every((check) => check.ok) };
}

function specKey(spec: StateCheckSpec): string {
  return canonicalJson({ ...spec, negate: spec.negate === true });
}
