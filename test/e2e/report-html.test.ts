/**
 * The html report in a real browser (Debian's chromium; `.ci/run` installs it, a test never does): it renders with no
 * console error and fetches nothing, its three charts have data marks, and the leaderboard in the DOM
 * shows exactly the numbers of the summary.json written beside it. The page is made from the committed
 * calibration runs (four simulated models, the default matrix).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../src/bench/run/compare-configs.ts";
import { numberText, rateText } from "../../src/report/format.ts";
import { buildReport } from "../../src/report/report.ts";
import { loadRunSet } from "../../src/report/runs.ts";
import { writeReport } from "../../src/report/write.ts";
import { launchChromium, skipWithoutChromium } from "../../src/view/chromium.ts";

const skipped = skipWithoutChromium("report-html test");
const out = mkdtempSync(join(tmpdir(), "report-html-"));
let context: BrowserContext;

interface DomRow {
  model: string;
  config: string;
  cells: { text: string; value?: string; k?: string; n?: string }[];
}

beforeAll(async () => {
  if (skipped) return;
  const { runIds } = JSON.parse(readFileSync("reports/calibration/summary.json", "utf8")) as { runIds: string[] };
  writeReport(buildReport(loadRunSet(runIds, "results/calibration")), out);
  context = await launchChromium();
}, 60_000);

afterAll(async () => {
  await context?.close();
});

describe.skipIf(skipped)("report.html in headless Chromium", () => {
  it("renders with no console error, fetching nothing but itself, charts full of marks, leaderboard = summary.json", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });

    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith("file:") && !url.startsWith("data:"))).toEqual([]);
    expect(await page.title()).toContain("(simulated)");

    for (const id of ["chart-filter", "chart-latency", "chart-failures"]) {
      const marks = page.locator(`svg#${id} .mark`);
      expect(await marks.count(), id).toBeGreaterThan(3);
      const box = await marks.first().boundingBox();
      expect(box && box.width > 0 && box.height > 0, `${id} mark is drawn`).toBe(true);
    }

    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Pick<RunSummary, "rows">;
    const headers = await page.$$eval("#table-leaderboard thead th", (cells) => cells.map((cell) => cell.textContent));
    const rows: DomRow[] = await page.$$eval("#table-leaderboard tbody tr", (trs) =>
      trs.map((tr) => ({
        model: tr.getAttribute("data-model") ?? "",
        config: tr.getAttribute("data-config") ?? "",
        cells: [...tr.querySelectorAll("td")].map((td) => ({
          text: td.textContent ?? "",
          value: td.getAttribute("data-value") ?? undefined,
          k: td.getAttribute("data-k") ?? undefined,
          n: td.getAttribute("data-n") ?? undefined,
        })),
      })),
    );
    expect(rows).toHaveLength(summary.rows.length);
    const cell = (row: DomRow, header: string) => row.cells[headers.indexOf(header)]!;
    for (const row of rows) {
      const expected = summary.rows.find((r) => r.model === row.model && r.config === row.config)!;
      expect(expected, `${row.model} × ${row.config} in summary.json`).toBeDefined();
      const task = cell(row, "task success [95% CI]");
      expect([task.k, task.n, task.value]).toEqual([
        String(expected.taskSuccess.k),
        String(expected.taskSuccess.n),
        String(expected.taskSuccess.value),
      ]);
      expect(task.text).toBe(rateText(expected.taskSuccess, "interval"));
      expect(cell(row, "n").text).toBe(String(expected.n));
      expect(cell(row, "tool choice").text).toBe(rateText(expected.toolChoice));
      expect(cell(row, "params").text).toBe(rateText(expected.paramAccuracy));
      expect(cell(row, "rescue or fallback").text).toBe(rateText(expected.rescueRate, "counts"));
      expect(cell(row, "calls/item").text).toBe(numberText(expected.callsPerItem, 2));
      expect(cell(row, "p95 ms").value).toBe(String(expected.p95Ms?.value ?? ""));
    }
    await page.screenshot({ path: join(out, "report.png"), fullPage: false });
  });
});
