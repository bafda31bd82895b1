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
  const texts = table.rows.map((row) => row.cells.map(cellText));
  const widths = table.columns.map((column, index) =>
    Math.max(column.header.length, ...texts.map((cells) => cells[index]!.length)),
  );
  const keyCount = Math.max(
    1,
    table.columns.findIndex((column) => isNumeric(column.kind)),
  );
  const keys = [...Array(keyCount).keys()];
  const rendered = columnParts(widths, keyCount, width).map((part) => {
    const columns = [...keys, ...part];
    const out = new Table({
      head: columns.map((index) => table.columns[index]!.header),
      colAligns: columns.map((index) => (isNumeric(table.columns[index]!.kind) ? "right" : "left")),
      ...BORDERLESS,
    });
    for (const cells of texts) out.push(columns.map((index) => cells[index]!));
    return out.toString();
  });
  return `${table.title}\n${rendered.join("\n\n")}\n`;
}

/**
 * The columns after the first `keyCount` (the name columns, repeated in every part), dealt in order into
 * parts that each fit `width` beside the name columns; a column wider than that alone is a part of its own.
 */
export function columnParts(widths: readonly number[], keyCount: number, width: number): number[][] {
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
