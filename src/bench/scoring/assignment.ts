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

const TAKE = 0;
const SKIP_EXPECTED = 1;
const SKIP_ACTUAL = 2;

function alignInOrder({ expected, actual, accepts, preference = () => 0 }: AssignmentInput): number[] {
  // The best alignment of the first i expected with the first j actual calls, at cell i * width + j:
  // its size, its summed preference, and how it was reached (took the pair i-1 ↔ j-1, skipped
  // expected i-1, skipped actual j-1). Flat typed arrays: this runs for every scored item.
  const width = actual + 1;
  const cells = (expected + 1) * width;
  const count = new Int32Array(cells);
  const weight = new Float64Array(cells);
  const move = new Uint8Array(cells).fill(SKIP_ACTUAL);
  for (let i = 1; i <= expected; i++) {
    for (let j = 1; j <= actual; j++) {
      const cell = i * width + j;
      let from = cell - 1;
      let how = SKIP_ACTUAL;
      if (better(count[cell - width]!, weight[cell - width]!, count[from]!, weight[from]!)) {
        from = cell - width;
        how = SKIP_EXPECTED;
      }
      let bestCount = count[from]!;
      let bestWeight = weight[from]!;
      if (accepts(i - 1, j - 1)) {
        const diagonal = cell - width - 1;
        const takenCount = count[diagonal]! + 1;
        const takenWeight = weight[diagonal]! + preference(j - 1);
        if (better(takenCount, takenWeight, bestCount, bestWeight)) {
          bestCount = takenCount;
          bestWeight = takenWeight;
          how = TAKE;
        }
      }
      count[cell] = bestCount;
      weight[cell] = bestWeight;
      move[cell] = how;
    }
  }
  const result = new Array<number>(expected).fill(-1);
  let i = expected;
  let j = actual;
  while (i > 0 && j > 0) {
    const how = move[i * width + j];
    if (how === TAKE) result[i - 1] = j - 1;
    if (how !== SKIP_ACTUAL) i--;
    if (how !== SKIP_EXPECTED) j--;
  }
  return result;
}

/** More pairs, or as many with a higher summed preference. */
function better(count: number, weight: number, thanCount: number, thanWeight: number): boolean {
  return count > thanCount || (count === thanCount && weight > thanWeight);
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
