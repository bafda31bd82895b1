/**
 * Unified diff in the format of jsdiff's createTwoFilesPatch (what the reference server's edit_file prints):
 * "Index:" and "====" header, "--- path\toriginal" / "+++ path\tmodified", hunks with 4 lines of context.
 */

import { type DiffOp, lineDiff } from "../kit/line-diff.ts";

const CONTEXT = 4;

type Op = DiffOp;

/** Lines with their newline kept, so "x" at end of file differs from "x\n" as it does in jsdiff. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}

function renderOp(op: Op): string[] {
  const text = op.text.endsWith("\n") ? op.text.slice(0, -1) : op.text;
  const rendered = [`${op.kind}${text}`];
  if (!op.text.endsWith("\n")) rendered.push("\\ No newline at end of file");
  return rendered;
}

function hunksOf(ops: Op[]): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const hunks: string[] = [];
  let cursor = 0;
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - CONTEXT);
    let endChange = changed[cursor]!;
    while (cursor + 1 < changed.length && changed[cursor + 1]! - endChange <= 2 * CONTEXT)
      endChange = changed[++cursor]!;
    cursor++;
    const end = Math.min(ops.length, endChange + CONTEXT + 1);

    const before = ops.slice(0, start);
    const slice = ops.slice(start, end);
    const oldStart = before.filter((op) => op.kind !== "+").length + 1;
    const newStart = before.filter((op) => op.kind !== "-").length + 1;
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    // jsdiff reports an empty side as starting at the line before.
    const header = `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`;
    hunks.push([header, ...slice.flatMap(renderOp)].join("\n"));
  }
  return hunks;
}

export function unifiedDiff(original: string, modified: string, path: string): string {
  const header = [`Index: ${path}`, "=".repeat(67), `--- ${path}\toriginal`, `+++ ${path}\tmodified`];
  return `${[...header, ...hunksOf(lineDiff(splitLines(original), splitLines(modified)))].join("\n")}\n`;
}

/** The reference server wraps the patch in a fenced block with enough backticks to survive the content. */
export function fencedDiff(diff: string): string {
  let ticks = 3;
  while (diff.includes("`".repeat(ticks))) ticks++;
  const fence = "`".repeat(ticks);
  return `${fence}diff\n${diff}${fence}\n\n`;
}
