/** A report table in the terminal (cli-table3): the same text as the markdown, with its title above. */
import Table from "cli-table3";
import { cellText, isNumeric, type ReportTable } from "./table.ts";

export function renderTerminal(table: ReportTable): string {
  const rendered = new Table({
    head: table.columns.map((column) => column.header),
    colAligns: table.columns.map((column) => (isNumeric(column.kind) ? "right" : "left")),
    // plain text: the table lands in CI logs and files as often as on a terminal
    style: { head: [], border: [] },
  });
  for (const row of table.rows) rendered.push(row.cells.map(cellText));
  return `${table.title}\n${rendered.toString()}\n`;
}
