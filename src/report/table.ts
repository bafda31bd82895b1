/**
 * The report's table model: every table is built once from the run files and rendered by each format
 * (markdown, csv, html, terminal). A cell keeps its raw numbers, so the csv carries exact values and
 * intervals while the pages show them rounded.
 */
import type { Rate } from "../bench/scoring/rate.ts";
import { ReportTableError } from "./errors.ts";
import { numberText, pointsIntervalText, pointsText, pValueText, type RateStyle, rateText } from "./format.ts";

export type Cell =
  | { kind: "text"; text: string }
  | { kind: "rate"; rate: Rate; style: RateStyle }
  | { kind: "number"; value: number | null; digits: number }
  /** A difference of proportions (B − A) with its interval. */
  | { kind: "delta"; value: number | null; lo: number | null; hi: number | null }
  | { kind: "p"; value: number | null };

export type CellKind = Cell["kind"];

export interface Column {
  header: string;
  kind: CellKind;
}

export interface ReportRow {
  cells: Cell[];
  /** What the row is about (model, config, …): written as data-* attributes in the html. */
  key: Record<string, string>;
}

export interface ReportTable {
  /** File-name safe: the csv is `<id>.csv`. */
  id: string;
  title: string;
  notes: string[];
  columns: Column[];
  rows: ReportRow[];
}

export const textCell = (text: string): Cell => ({ kind: "text", text });
export const rateCell = (rate: Rate, style: RateStyle = "plain"): Cell => ({ kind: "rate", rate, style });
export const numberCell = (value: number | null, digits = 1): Cell => ({ kind: "number", value, digits });
export const pCell = (value: number | null): Cell => ({ kind: "p", value });
export const deltaCell = (difference: { value: number; lo: number; hi: number } | null): Cell =>
  difference === null
    ? { kind: "delta", value: null, lo: null, hi: null }
    : { kind: "delta", value: difference.value, lo: difference.lo, hi: difference.hi };

/** The cell as the pages show it. */
/** The two columns every per-model × configuration table starts with, and their cells. */
export const MODEL_CONFIG_COLUMNS: readonly Column[] = [
  { header: "model", kind: "text" },
  { header: "config", kind: "text" },
];

export const modelConfigCells = (entry: { model: string; config: string }): Cell[] => [
  textCell(entry.model),
  textCell(entry.config),
];

export function cellText(cell: Cell): string {
  switch (cell.kind) {
    case "text":
      return cell.text;
    case "rate":
      return rateText(cell.rate, cell.style);
    case "number":
      return numberText(cell.value, cell.digits);
    case "delta":
      return cell.value === null
        ? pointsText(null)
        : `${pointsText(cell.value)} ${pointsIntervalText(cell.lo, cell.hi)}`;
    case "p":
      return pValueText(cell.value);
  }
}

/** Left-aligned (names) or right-aligned (numbers). */
export function isNumeric(kind: CellKind): boolean {
  return kind !== "text";
}

/** Checks a built table: every row has one cell per column, of the column's kind (a builder bug otherwise). */
export function checkTable(table: ReportTable): ReportTable {
  table.rows.forEach((row, index) => {
    const kinds = row.cells.map((cell) => cell.kind).join(",");
    const expected = table.columns.map((column) => column.kind).join(",");
    if (kinds !== expected) {
      throw new ReportTableError(
        "REPORT_TABLE_SHAPE",
        `report table ${table.id}, row ${index}: cells ${kinds} do not fit columns ${expected}`,
        { context: { table: table.id, row: index } },
      );
    }
  });
  return table;
}
