/**
 * Repeats (`--repeats K`): an item run K times is K tries of one task. pass^k (τ-bench's reliability
 * measure) is the share of items whose K tries all succeeded; pass@k the share with at least one
 * success. They mean something only when the tries can differ: a model at temperature > 0, or the
 * simulator, whose seed moves with the repeat.
 */
import { type Rate, rate } from "./rate.ts";

export interface RepeatTry {
  item: { id: string };
  score: { taskSuccess: boolean };
}

export interface RepeatRates {
  /** Tries per item: the most any item had. Items with fewer (an unfinished run) are left out. */
  k: number;
  passHatK: Rate;
  passAtK: Rate;
}

/** Null when no item was tried more than once. */
export function repeatRates(tries: readonly RepeatTry[]): RepeatRates | null {
  const successes = new Map<string, boolean[]>();
  for (const attempt of tries) {
    const list = successes.get(attempt.item.id) ?? [];
    list.push(attempt.score.taskSuccess);
    successes.set(attempt.item.id, list);
  }
  const k = Math.max(0, ...[...successes.values()].map((list) => list.length));
  if (k < 2) return null;
  const complete = [...successes.values()].filter((list) => list.length === k);
  const all = complete.filter((list) => list.every(Boolean)).length;
  const any = complete.filter((list) => list.some(Boolean)).length;
  return { k, passHatK: rate(all, complete.length), passAtK: rate(any, complete.length) };
}
