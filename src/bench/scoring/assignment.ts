/**
 * Assigns actual calls to expected calls, each actual call used at most once, as many expected calls
 * assigned as possible. `ordered` (a `sequence` item): the assigned actual indices must increase with
 * the expected index — a longest-common-subsequence alignment. Otherwise a maximum bipartite
 * matching (augmenting paths). Among assignments of the same size, actual calls with a higher
 * `preference` are taken first (successful calls over failed ones, so a failed call that was retried
 * correctly is the one left over).
 */

export interface AssignmentInput {
  expected: number;
  actual: number;
  accepts: (expected: number, actual: number) => boolean;
  /** Higher is preferred; default 0 for all. */
  preference?: (actual: number) => number;
  ordered: boolean;
}

/** For each expected index, the assigned actual index or -1. */
export function assign(input: AssignmentInput): number[] {
  return input.ordered ? alignInOrder(input) : matchAnyOrder(input);
}

interface Score {
  count: number;
  weight: number;
}

function better(a: Score, b: Score): boolean {
  return a.count > b.count || (a.count === b.count && a.weight > b.weight);
}

function alignInOrder({ expected, actual, accepts, preference = () => 0 }: AssignmentInput): number[] {
  // best[i][j]: the best alignment of the first i expected with the first j actual calls;
  // move[i][j]: how it was reached (took the pair i-1 ↔ j-1, skipped expected i-1, skipped actual j-1).
  const best: Score[][] = Array.from({ length: expected + 1 }, () =>
    Array.from({ length: actual + 1 }, () => ({ count: 0, weight: 0 })),
  );
  const move: ("take" | "skipExpected" | "skipActual")[][] = Array.from({ length: expected + 1 }, () =>
    new Array(actual + 1).fill("skipActual"),
  );
  for (let i = 1; i <= expected; i++) {
    for (let j = 1; j <= actual; j++) {
      let score = best[i]![j - 1]!;
      let how: "take" | "skipExpected" | "skipActual" = "skipActual";
      if (better(best[i - 1]![j]!, score)) {
        score = best[i - 1]![j]!;
        how = "skipExpected";
      }
      if (accepts(i - 1, j - 1)) {
        const diagonal = best[i - 1]![j - 1]!;
        const taken = { count: diagonal.count + 1, weight: diagonal.weight + preference(j - 1) };
        if (better(taken, score)) {
          score = taken;
          how = "take";
        }
      }
      best[i]![j] = score;
      move[i]![j] = how;
    }
  }
  const result = new Array<number>(expected).fill(-1);
  let i = expected;
  let j = actual;
  while (i > 0 && j > 0) {
    const how = move[i]![j];
    if (how === "take") result[i - 1] = j - 1;
    if (how !== "skipActual") i--;
    if (how !== "skipExpected") j--;
  }
  return result;
}

function matchAnyOrder({ expected, actual, accepts, preference = () => 0 }: AssignmentInput): number[] {
  const candidates = Array.from({ length: expected }, (_, e) =>
    Array.from({ length: actual }, (_, a) => a)
      .filter((a) => accepts(e, a))
      .sort((x, y) => preference(y) - preference(x) || x - y),
  );
  const ownerOf = new Array<number>(actual).fill(-1);
  const tryAssign = (e: number, visited: boolean[]): boolean => {
    for (const a of candidates[e]!) {
      if (visited[a]) continue;
      visited[a] = true;
      if (ownerOf[a] === -1 || tryAssign(ownerOf[a]!, visited)) {
        ownerOf[a] = e;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < expected; e++) tryAssign(e, new Array<boolean>(actual).fill(false));
  const result = new Array<number>(expected).fill(-1);
  ownerOf.forEach((e, a) => {
    if (e !== -1) result[e] = a;
  });
  return result;
}
