/**
 * Compares two configurations (or two runs) on the same items: records are paired by item id and
 * repeat, and task success and tool choice are each tested with McNemar's exact test, with the
 * difference B − A and Newcombe's paired 95% interval — so a report can say whether a difference
 * is real.
 */

import { InputError } from "../../errors.ts";
import {
  countPair,
  mcnemarExact,
  type PairedCounts,
  type PairedDifference,
  pairedDifferenceCI,
} from "../stats/mcnemar.ts";
import { type Rate, rate } from "./rate.ts";
import type { ItemScore } from "./score-types.ts";
import type { ScoredRecord } from "./summarize.ts";

/** One side of a comparison holds two records for the same item and repeat (e.g. two models mixed). */
export class DuplicatePairKeyError extends InputError {
  constructor(side: "a" | "b", key: string) {
    super(
      "COMPARE_DUPLICATE_KEY",
      `compare: side ${side} has more than one record for ${key}; pass one configuration per side`,
      {
        context: { side, key },
      },
    );
  }
}

export interface PairedTest {
  /** Pairs where the metric applies to both sides. */
  n: number;
  /** A failed, B succeeded. */
  b01: number;
  /** A succeeded, B failed. */
  b10: number;
  both: number;
  neither: number;
  /** McNemar's exact two-sided p-value. */
  pValue: number;
  a: Rate;
  b: Rate;
  /** pB − pA with Newcombe's interval. */
  difference: PairedDifference;
}

export interface Comparison {
  /** Items × repeats present on both sides. */
  paired: number;
  onlyInA: number;
  onlyInB: number;
  taskSuccess: PairedTest;
  /** Over items with gold calls (the set of tools called). */
  toolChoice: PairedTest;
}

export function compare(a: readonly ScoredRecord[], b: readonly ScoredRecord[]): Comparison {
  const left = byKey(a, "a");
  const right = byKey(b, "b");
  const pairs: [ItemScore, ItemScore][] = [];
  for (const [key, score] of left) {
    const other = right.get(key);
    if (other) pairs.push([score, other]);
  }
  return {
    paired: pairs.length,
    onlyInA: left.size - pairs.length,
    onlyInB: right.size - pairs.length,
    taskSuccess: pairedTest(pairs, (score) => score.taskSuccess),
    toolChoice: pairedTest(pairs, (score) => score.toolChoice.callSet),
  };
}

function byKey(records: readonly ScoredRecord[], side: "a" | "b"): Map<string, ItemScore> {
  const keyed = new Map<string, ItemScore>();
  for (const record of records) {
    const key = `${record.item.id}#${record.repeat ?? 0}`;
    if (keyed.has(key)) throw new DuplicatePairKeyError(side, key);
    keyed.set(key, record.score);
  }
  return keyed;
}

function pairedTest(
  pairs: readonly [ItemScore, ItemScore][],
  metric: (score: ItemScore) => boolean | null,
): PairedTest {
  const counts: PairedCounts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (const [left, right] of pairs) countPair(counts, metric(left), metric(right));
  const { both, onlyA, onlyB, neither } = counts;
  const n = both + onlyA + onlyB + neither;
  return {
    n,
    b01: onlyB,
    b10: onlyA,
    both,
    neither,
    pValue: mcnemarExact(onlyB, onlyA),
    a: rate(both + onlyA, n),
    b: rate(both + onlyB, n),
    difference: pairedDifferenceCI(counts),
  };
}
