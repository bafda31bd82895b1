/**
 * Writes a report folder: report.md, report.html, summary.json and one csv per table. The files are a
 * pure function of the report (so of the run files); the folder's own path appears in none of them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderCsv } from "./csv.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";
import type { Report } from "./report.ts";
import type { ReportTable } from "./table.ts";

export const REPORT_FILES = { markdown: "report.md", html: "report.html", summary: "summary.json" } as const;

export const csvFileName = (table: ReportTable): string => `${table.id}.csv`;

/** Every file of the report: name → content. */
export function reportFiles(report: Report): Map<string, string> {
  const files = new Map<string, string>();
  files.set(REPORT_FILES.markdown, renderMarkdown(report, { csv: csvFileName, html: REPORT_FILES.html }));
  files.set(REPORT_FILES.html, renderHtml(report));
  files.set(REPORT_FILES.summary, `${JSON.stringify(report.summary, null, 2)}\n`);
  for (const table of report.sections.flatMap((section) => section.tables)) {
    files.set(csvFileName(table), renderCsv(table));
  }
  return files;
}

/** Writes the report into `dir` (created when missing); returns the paths written, in order. */
export function writeReport(report: Report, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return [...reportFiles(report)].map(([name, content]) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  });
}
