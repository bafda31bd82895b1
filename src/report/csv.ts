/**
 * A table as csv (csv-stringify): exact values, not the rounded text of the pages. A rate column
 * becomes value, lo, hi, k, n; a difference becomes value, lo, hi; proportions stay fractions.
 */
import { stringify } from "csv-stringify/sync";
import type { Cell, Column, ReportTable } from "./table.ts";

export function renderCsv(table: ReportTable): string {
  const header = table.columns.flatMap(columnHeaders);
  const rows = table.rows.map((row) => row.cells.flatMap(cellValues));
  return stringify([header, ...rows], { eof: true });
}

function columnHeaders(column: Column): string[] {
  const name = column.header
    .replace(/\[[^\]]*\]/g, "")
    .replace(/→/g, " to ")
    .replace(/Δ/g, " delta ")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
  switch (column.kind) {
    case "rate":
      return [name, `${name}_lo`, `${name}_hi`, `${name}_k`, `${name}_n`];
    case "delta":
      return [name, `${name}_lo`, `${name}_hi`];
    default:
      return [name];
  }
}

type CsvValue = string | number;

function cellValues(cell: Cell): CsvValue[] {
  const value = (x: number | null): CsvValue => (x === null ? "" : x);
  switch (cell.kind) {
    case "text":
      return [cell.text];
    case "rate":
      return [value(cell.rate.value), value(cell.rate.lo), value(cell.rate.hi), cell.rate.k, cell.rate.n];
    case "delta":
      return [value(cell.value), value(cell.lo), value(cell.hi)];
    case "number":
    case "p":
      return [value(cell.value)];
  }
}
