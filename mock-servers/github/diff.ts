/** Line diffs in git's unified format (3 lines of context), for commits, PR files and PR diffs. */

import { type DiffOp, lineDiff } from "../kit/line-diff.ts";

const CONTEXT = 3;

type Op = DiffOp;

export interface LinePatch {
  additions: number;
  deletions: number;
  /** The hunks only ("@@ -1,3 +1,4 @@ …"), as GitHub's `patch` field of a file. */
  patch: string;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Ranges of op indices that make up each hunk: every change with up to 3 context lines around it. */
function hunkRanges(ops: Op[]): [number, number][] {
  const ranges: [number, number][] = [];
  ops.forEach((op, index) => {
    if (op.kind === " ") return;
    const start = Math.max(0, index - CONTEXT);
    const end = Math.min(ops.length - 1, index + CONTEXT);
    const last = ranges.at(-1);
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  });
  return ranges;
}

function hunkText(ops: Op[], [start, end]: [number, number]): string {
  const slice = ops.slice(start, end + 1);
  const oldCount = slice.filter((op) => op.kind !== "+").length;
  const newCount = slice.filter((op) => op.kind !== "-").length;
  const first = slice[0]!;
  const oldStart = oldCount > 0 ? first.oldBefore + 1 : first.oldBefore;
  const newStart = newCount > 0 ? first.newBefore + 1 : first.newBefore;
  const header = `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`;
  return [header, ...slice.map((op) => `${op.kind}${op.text}`)].join("\n");
}

export function linePatch(before: string, after: string): LinePatch {
  const ops = lineDiff(splitLines(before), splitLines(after));
  return {
    additions: ops.filter((op) => op.kind === "+").length,
    deletions: ops.filter((op) => op.kind === "-").length,
    patch: hunkRanges(ops)
      .map((range) => hunkText(ops, range))
      .join("\n"),
  };
}

export interface FileDiffInput {
  path: string;
  status: "added" | "removed" | "modified";
  beforeSha: string | null;
  afterSha: string | null;
  patch: string;
}

/** One file's section of `git diff` output, with the `diff --git` header and index line. */
export function gitDiffSection(file: FileDiffInput): string {
  const short = (sha: string | null) => (sha ?? "0".repeat(40)).slice(0, 7);
  const header = [`diff --git a/${file.path} b/${file.path}`];
  if (file.status === "added") header.push("new file mode 100644", `index ${short(null)}..${short(file.afterSha)}`);
  else if (file.status === "removed")
    header.push("deleted file mode 100644", `index ${short(file.beforeSha)}..${short(null)}`);
  else header.push(`index ${short(file.beforeSha)}..${short(file.afterSha)} 100644`);
  header.push(
    file.status === "added" ? "--- /dev/null" : `--- a/${file.path}`,
    file.status === "removed" ? "+++ /dev/null" : `+++ b/${file.path}`,
  );
  return `${header.join("\n")}\n${file.patch}`;
}
