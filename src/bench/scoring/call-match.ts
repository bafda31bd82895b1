/**
 * Gold calls against counted calls (calls.ts), three ways:
 * - `strict`: each gold call matched by a distinct counted call with the same name and every argument
 *   right by `matchJsonArgs` (BFCL's rules, json mode, the tool's inputSchema) — in order for a
 *   `sequence` item. This is what task success and whole-call accuracy use.
 * - `byName`: the same with the name only (tool choice: "the set of calls").
 * - `pairings`: every gold call with the counted call its arguments are judged against — the strict
 *   match when there is one, else the unused same-name call with the most right arguments (ties: a
 *   successful call, then the later one: the model's last attempt). Per-argument accuracy reads these.
 * Counted calls left unpaired are the extra calls.
 */

import type { ExpectedCall } from "../dataset/types.ts";
import { type CallArgsVerdict, matchJsonArgs } from "./arg-match.ts";
import { assign } from "./assignment.ts";
import type { CountedCall } from "./calls.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

export interface Pairing {
  expected: number;
  /** Index into the counted calls, or -1. */
  actual: number;
  strict: boolean;
  verdict: CallArgsVerdict | null;
}

export interface CallMatching {
  pairings: Pairing[];
  /** Every gold call strictly matched. */
  allStrict: boolean;
  /** Every gold call's tool called (distinct calls, in order for `sequence`). */
  allByName: boolean;
  /** Counted calls not paired with any gold call. */
  unpaired: CountedCall[];
  /** The matcher's verdict on counted call `actual` (an index) against gold call `expected`. */
  verdict(expected: number, actual: number): CallArgsVerdict;
}

export function matchCalls(
  gold: readonly ExpectedCall[],
  actual: readonly CountedCall[],
  ordered: boolean,
  catalog: ToolCatalog,
): CallMatching {
  const verdicts = new Map<string, CallArgsVerdict>();
  const verdictOf = (e: number, a: number): CallArgsVerdict => {
    const key = `${e}:${a}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      const call = actual[a]!;
      verdict = matchJsonArgs(call.args, gold[e]!.args, catalog.inputSchema(call.tool));
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  const sameName = (e: number, a: number) => gold[e]!.tool === actual[a]!.tool;
  const preference = (a: number) => (actual[a]!.ok ? 1 : 0);

  const strict = assign({
    expected: gold.length,
    actual: actual.length,
    accepts: (e, a) => sameName(e, a) && verdictOf(e, a).valid,
    preference,
    ordered,
  });
  const byName = assign({ expected: gold.length, actual: actual.length, accepts: sameName, preference, ordered });

  const used = new Set(strict.filter((a) => a >= 0));
  const pairings: Pairing[] = strict.map((a, e) =>
    a >= 0 ? { expected: e, actual: a, strict: true, verdict: verdictOf(e, a) } : unpairedGold(e),
  );
  for (const pairing of pairings) {
    if (pairing.strict) continue;
    const best = bestSameName(pairing.expected, actual, used, sameName, verdictOf);
    if (best < 0) continue;
    used.add(best);
    pairing.actual = best;
    pairing.verdict = verdictOf(pairing.expected, best);
  }
  return {
    pairings,
    allStrict: strict.every((a) => a >= 0),
    allByName: byName.every((a) => a >= 0),
    unpaired: actual.filter((_, index) => !used.has(index)),
    verdict: verdictOf,
  };
}

function unpairedGold(expected: number): Pairing {
  return { expected, actual: -1, strict: false, verdict: null };
}

/** The unused same-name call with the most right arguments; ties: a successful call, then the later one. */
function bestSameName(
  e: number,
  actual: readonly CountedCall[],
  used: ReadonlySet<number>,
  sameName: (e: number, a: number) => boolean,
  verdictOf: (e: number, a: number) => CallArgsVerdict,
): number {
  let best = -1;
  let bestRank: number[] = [];
  actual.forEach((call, a) => {
    if (used.has(a) || !sameName(e, a)) return;
    const rank = [rightArgs(verdictOf(e, a)), call.ok ? 1 : 0, a];
    if (best < 0 || outranks(rank, bestRank)) {
      best = a;
      bestRank = rank;
    }
  });
  return best;
}

/** Lexicographic comparison of two equally long rank vectors. */
function outranks(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

function rightArgs(verdict: CallArgsVerdict): number {
  let right = 0;
  for (const param of verdict.params.values()) if (param.valid) right++;
  return right;
}
