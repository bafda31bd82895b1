/** One line of a diff: kept (" "), removed ("-") or added ("+"), with how far into each file it stands. */
export interface DiffOp {
  kind: " " | "-" | "+";
  text: string;
  /** Lines of the old / new file consumed before this op. */
  oldBefore: number;
  newBefore: number;
}

/**
 * Longest-common-subsequence line diff; within a change, removals come before additions (as git and
 * jsdiff print them). The mocks render it in their servers' own formats.
 */
export function lineDiff(before: readonly string[], after: readonly string[]): DiffOp[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const at = { oldBefore: i, newBefore: j };
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: " ", text: before[i]!, ...at });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ kind: "-", text: before[i++]!, ...at });
    } else {
      ops.push({ kind: "+", text: after[j++]!, ...at });
    }
  }
  return ops;
}
