/**
 * A report table in the terminal (cli-table3): the same text as the markdown, with its title above,
 * within 100 columns (or the terminal's width). Borderless, columns two spaces apart; a table still wider
 * is cut into parts stacked one under the other, each repeating the leading name columns (model, config).
 */
import Table from "cli-table3";
import { cellText, isNumeric, type ReportTable } from "./table.ts";

export const TERMINAL_WIDTH = 100;
const GAP = 2;
const NO_BORDER: Record<string, string> = Object.fromEntries(
  [
    "top",
    "top-mid",
    "top-left",
    "top-right",
    "bottom",
    "bottom-mid",
    "bottom-left",
    "bottom-right",
    "left",
    "left-mid",
    "mid",
    "mid-mid",
    "right",
    "right-mid",
  ].map((name) => [name, ""]),
);

/** cli-table3 options of a plain borderless table, columns two spaces apart (also the bench's summary). */
export const BORDERLESS = {
  chars: { ...NO_BORDER, middle: " ".repeat(GAP) },
  // plain text: the table lands in CI logs and files as often as on a terminal
  style: { head: [], border: [], compact: true, "padding-left": 0, "padding-right": 0 },
} satisfies Table.TableConstructorOptions;

export function renderTerminal(table: ReportTable, width: number = TERMINAL_WIDTH): string {
  const keyCount = Math.max(
    1,
    table.columns.findIndex((column) => isNumeric(column.kind)),
  );
  const rendered = stackedTable({
    head: table.columns.map((column) => column.header),
    aligns: table.columns.map((column) => (isNumeric(column.kind) ? "right" : "left")),
    rows: table.rows.map((row) => row.cells.map(cellText)),
    keyCount,
    width,
  });
  return `${table.title}\n${rendered}\n`;
}

export interface StackedTable {
  head: readonly string[];
  aligns: readonly ("left" | "right")[];
  rows: readonly (readonly string[])[];
  /** The leading name columns, repeated in every part. */
  keyCount: number;
  width: number;
}

/**
 * A borderless table within `width`: when wider, cut into parts stacked one under the other (a blank line
 * between), each repeating the name columns (the report's tables, the bench's summary).
 */
export function stackedTable({ head, aligns, rows, keyCount, width }: StackedTable): string {
  const widths = head.map((header, index) => Math.max(header.length, ...rows.map((cells) => cells[index]!.length)));
  const keys = [...Array(keyCount).keys()];
  const rendered = columnParts(widths, keyCount, width).map((part) => {
    const columns = [...keys, ...part];
    const out = new Table({
      head: columns.map((index) => head[index]!),
      colAligns: columns.map((index) => aligns[index]!),
      ...BORDERLESS,
    });
    for (const cells of rows) out.push(columns.map((index) => cells[index]!));
    return out.toString();
  });
  return rendered.join("\n\n");
}

/**
 * The columns after the first `keyCount` (the name columns, repeated in every part), dealt in order into
 * parts that each fit `width` beside the name columns; a column wider than that alone is a part of its own.
 */
function columnParts(widths: readonly number[], keyCount: number, width: number): number[][] {
  const keyWidth = widths.slice(0, keyCount).reduce((sum, columnWidth) => sum + columnWidth + GAP, 0);
  const parts: number[][] = [];
  let used = keyWidth;
  for (let index = keyCount; index < widths.length; index++) {
    const part = parts.at(-1);
    if (part && part.length > 0 && used + widths[index]! <= width) {
      part.push(index);
    } else {
      parts.push([index]);
      used = keyWidth;
    }
    used += widths[index]! + GAP;
  }
  return parts.length > 0 ? parts : [[]];
}
