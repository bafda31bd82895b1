/**
 * The pages as a reader sees them, at a laptop's 1,280 px and a desktop's 1,920 px, in a real Chromium
 * (src/view/chromium.ts: never downloaded; skipped loudly without one): the html report made from the
 * committed calibration runs (four simulated models × the default matrix), and the viewer's runs list and
 * run page over two small simulated benches. No table widens the page: each sits in its own box, inside
 * the window, and scrolls there, its last column reachable. Every bar of every chart is named, and the
 * scatter chart's labels do not overlap. Screenshots go to test/output/pages/ (gitignored).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildView } from "../../scripts/build.ts";
import { buildReport } from "../../src/report/report.ts";
import { loadRunSet } from "../../src/report/runs.ts";
import { writeReport } from "../../src/report/write.ts";
import { createApp } from "../../src/serve/app.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService, type ItemPage, type RunDetail, type RunListEntry } from "../../src/serve/service.ts";
import { launchChromium, skipWithoutChromium } from "../../src/view/chromium.ts";

// the browser's globals, for the functions that run in the page (the project's tsconfig has no DOM lib):
// only what those functions touch
interface PageBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
}
interface PageElement {
  readonly id: string;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  scrollLeft: number;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): readonly PageElement[];
  getAttribute(name: string): string | null;
  getBoundingClientRect(): PageBox;
  getBBox(): PageBox;
}
declare const document: {
  readonly documentElement: PageElement;
  querySelectorAll(selector: string): readonly PageElement[];
  getElementById(id: string): PageElement | null;
};
declare const window: { readonly innerWidth: number };
declare function getComputedStyle(element: PageElement): { overflowX: string };

const skipped = skipWithoutChromium("page layout tests");
const WIDTHS = [1280, 1920] as const;
const SHOTS = join("test", "output", "pages");
const work = mkdtempSync(join(tmpdir(), "pages-layout-"));
let server: RunningServer;
let context: BrowserContext;
let wideRun: string;
let oneConfigRun: string;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function bench(body: object): Promise<string> {
  const { runId } = await api<{ runId: string }>("/bench", { method: "POST", body: JSON.stringify(body) });
  for (;;) {
    const runs = await api<RunListEntry[]>("/runs");
    if (runs.some((run) => run.runId === runId && !run.running && run.finishedAt)) return runId;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function open(url: string, width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.setViewportSize({ width, height: 900 });
  await page.goto(url);
  return { page, problems };
}

interface TableBox {
  id: string;
  /** The table's scroll box (or the table itself, outside one): its edges in the window, whether it scrolls sideways. */
  box: { left: number; right: number; scrolls: boolean };
  fits: boolean;
  /** The last column's right edge once the box is scrolled to its end. */
  lastColumnRight: number;
}

/** The page's width against the window's, and every table against its box. */
async function layout(page: Page): Promise<{ pageWidth: number; window: number; tables: TableBox[] }> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll("table")].map((table) => {
      const box = table.closest(".table-wrap") ?? table;
      const fits = table.scrollWidth <= box.clientWidth + 1;
      box.scrollLeft = box.scrollWidth;
      const cells = table.querySelectorAll("tr:first-child > *");
      const last = cells[cells.length - 1]?.getBoundingClientRect();
      const rect = box.getBoundingClientRect();
      const overflow = getComputedStyle(box).overflowX;
      box.scrollLeft = 0;
      return {
        id: table.id,
        box: { left: rect.left, right: rect.right, scrolls: overflow === "auto" || overflow === "scroll" },
        fits,
        lastColumnRight: last?.right ?? 0,
      };
    });
    return { pageWidth: document.documentElement.scrollWidth, window: window.innerWidth, tables };
  });
}

/** No table widens the page; each is in a box inside the window that scrolls when the table is wider. */
async function expectTablesInTheirBoxes(page: Page, where: string): Promise<TableBox[]> {
  const { pageWidth, window, tables } = await layout(page);
  expect(pageWidth, `${where}: the page is no wider than the window`).toBeLessThanOrEqual(window);
  expect(tables.length, where).toBeGreaterThan(0);
  for (const table of tables) {
    const name = `${where} ${table.id}`;
    expect(table.box.left, name).toBeGreaterThanOrEqual(0);
    expect(table.box.right, `${name}: its box is inside the window`).toBeLessThanOrEqual(window);
    if (!table.fits) expect(table.box.scrolls, `${name} is wider than its box, which scrolls`).toBe(true);
    // scrolled to its end, the last column is inside the box: p95, Δ, … reachable
    expect(table.lastColumnRight, `${name}: last column reachable`).toBeLessThanOrEqual(table.box.right + 1);
  }
  return tables;
}

beforeAll(async () => {
  if (skipped) return;
  mkdirSync(SHOTS, { recursive: true });
  const { runIds } = JSON.parse(readFileSync("reports/calibration/summary.json", "utf8")) as { runIds: string[] };
  const calibration = join(work, "calibration");
  for (const id of runIds) cpSync(join("results", "calibration", id), join(calibration, id), { recursive: true });
  writeReport(buildReport(loadRunSet(runIds, calibration)), join(work, "report"));

  const viewDir = join(work, "view");
  await buildView(viewDir);
  const app = createApp({
    service: new HarnessService({ resultsRoot: join(work, "results") }),
    runner: benchQueryRunner(),
    viewDir,
  });
  server = await listen(app, {});
  context = await launchChromium();
  // two models × the default matrix: long bar names, many rows, the warnings of blind filters
  wideRun = await bench({ models: ["sim:slm-3b", "sim:chaos"], limit: 30 });
  oneConfigRun = await bench({ models: ["sim:slm-7b"], configs: ["onsetlab"], limit: 10 });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(skipped)("the pages at 1,280 and 1,920 px", () => {
  it.each(WIDTHS)(
    "report.html at %i px: tables in their boxes, warnings folded, every bar named, no label over another",
    async (width) => {
      const { page, problems } = await open(pathToFileURL(join(work, "report", "report.html")).href, width);
      const tables = await expectTablesInTheirBoxes(page, `report ${width}`);
      // the leaderboard fits a laptop's window whole: p95 and every column in sight without scrolling
      expect(tables.find((table) => table.id === "table-leaderboard")?.fits, "leaderboard fits").toBe(true);

      // the warnings: one closed block, a line per row
      const warnings = page.locator("#leaderboard details.warnings");
      expect(await warnings.count()).toBe(1);
      expect(await warnings.getAttribute("open")).toBeNull();
      const lines = await warnings.locator("details.warning").count();
      expect(lines).toBeGreaterThan(1);
      expect(await warnings.locator("summary").first().textContent()).toContain(`${lines} warnings`);

      // the failure chart: a name and a share at every bar
      const failures = await page.$$eval("svg#chart-failures", ([svg]) => {
        const rows = new Set([...svg!.querySelectorAll("rect.mark")].map((rect) => rect.getAttribute("y")));
        return {
          rows: rows.size,
          names: svg!.querySelectorAll("text.bar-label").length,
          shares: svg!.querySelectorAll("text.bar-value").length,
        };
      });
      expect(failures.rows).toBeGreaterThan(10);
      expect(failures.names).toBeGreaterThanOrEqual(failures.rows);
      expect(failures.shares).toBe(failures.names);

      // the scatter chart: labels inside the chart, none over another; the rest counted in its note
      const scatter = await page.$$eval("svg#chart-latency", ([svg]) => {
        const chart = svg as unknown as PageElement;
        const [, , width, height] = chart.getAttribute("viewBox")!.split(" ").map(Number);
        const boxes = [...chart.querySelectorAll("text.point-label")].map((text) => {
          const box = text.getBBox();
          return { x0: box.x, x1: box.x + box.width, y0: box.y, y1: box.y + box.height, text: text.textContent };
        });
        const overlapping = boxes.flatMap((a, i) =>
          boxes
            .slice(i + 1)
            .filter((b) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5)
            .map((b) => `${a.text} × ${b.text}`),
        );
        const outside = boxes.filter((box) => box.x0 < 0 || box.x1 > width! || box.y0 < 0 || box.y1 > height!);
        return {
          points: chart.querySelectorAll("circle.mark").length,
          labels: boxes.length,
          overlapping,
          outside: outside.map((box) => box.text),
          note: chart.querySelector("text.note")?.textContent ?? "",
        };
      });
      expect(scatter.overlapping).toEqual([]);
      expect(scatter.outside).toEqual([]);
      expect(scatter.labels).toBeGreaterThan(10);
      if (scatter.labels < scatter.points) {
        expect(scatter.note).toContain(`${scatter.points - scatter.labels} of ${scatter.points} points unlabelled`);
      }
      await page.screenshot({ path: join(SHOTS, `report-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
    },
  );

  it.each(WIDTHS)("the viewer's runs list at %i px: task success, dataset, model, '1 configuration'", async (width) => {
    const { page, problems } = await open(`${server.url}/#/runs`, width);
    const row = (runId: string) => page.locator(`#runs tr[data-run="${runId}"]`);
    await row(oneConfigRun).waitFor();
    const runs = await api<RunListEntry[]>("/runs");
    const headers = await page.$$eval("#runs thead th", (cells) => cells.map((cell) => cell.textContent));
    expect(headers).toEqual(expect.arrayContaining(["models", "task success", "dataset"]));
    const cell = async (runId: string, header: string) =>
      row(runId).locator("td").nth(headers.indexOf(header)).textContent();

    const one = runs.find((run) => run.runId === oneConfigRun)!;
    expect(await cell(oneConfigRun, "matrix")).toBe("1 configuration");
    expect(await cell(oneConfigRun, "models")).toBe("sim:slm-7b");
    expect(await cell(oneConfigRun, "task success")).toBe(`${(one.taskSuccess[0]!.value! * 100).toFixed(1)}%`);
    expect(await cell(oneConfigRun, "dataset")).toBe(one.dataset.suite ?? one.dataset.files.join(", "));

    const wide = runs.find((run) => run.runId === wideRun)!;
    const best = Math.max(...wide.taskSuccess.map((entry) => entry.value ?? 0));
    expect(await cell(wideRun, "task success")).toContain(`${(best * 100).toFixed(1)}%`);
    expect(await cell(wideRun, "models")).toBe("sim:slm-3b, sim:chaos");

    await expectTablesInTheirBoxes(page, `runs ${width}`);
    await page.screenshot({ path: join(SHOTS, `runs-${width}.png`), fullPage: true });
    expect(problems).toEqual([]);
  });

  it.each(WIDTHS)(
    "a run's page at %i px: the items one click from the top, every bar named, tables in their boxes",
    async (width) => {
      const { page, problems } = await open(`${server.url}/#/runs/${wideRun}`, width);
      await page.locator("#table-leaderboard").waitFor();
      await page.locator("#items tbody tr").first().waitFor();
      const rows = (await api<RunDetail>(`/runs/${wideRun}`)).summary!.rows.length;
      expect(rows).toBeGreaterThan(10);
      for (const id of ["chart-success", "chart-failures"]) {
        const canvas = page.locator(`canvas#${id}`);
        await expect.poll(() => canvas.getAttribute("data-bars"), { timeout: 60_000 }).not.toBeNull();
        const bars = Number(await canvas.getAttribute("data-bars"));
        expect(bars, id).toBe(rows);
        expect(Number(await canvas.getAttribute("data-named")), `${id}: every bar named`).toBe(bars);
      }
      // task success by category: a table of bars, a row per model × configuration
      expect(await page.locator("#category-bars tbody tr").count()).toBe(rows);
      expect(await page.locator("#category-bars td.bar").count()).toBeGreaterThan(rows);

      await expectTablesInTheirBoxes(page, `run ${width}`);
      await page.screenshot({ path: join(SHOTS, `run-${width}.png`), fullPage: false });

      // the jump links sit in the first screen; "Items" brings the item list to the top
      const jump = page.locator("#jump a[data-target=items-section]");
      const at = await jump.boundingBox();
      expect(at && at.y < 900, "the link to the items is in the first screen").toBe(true);
      await jump.click();
      await expect
        .poll(
          () => page.evaluate(() => Math.round(document.getElementById("items-section")!.getBoundingClientRect().top)),
          { timeout: 60_000 },
        )
        .toBeLessThan(50);
      expect(page.url()).toContain(`#/runs/${wideRun}`);
      await page.screenshot({ path: join(SHOTS, `run-items-${width}.png`), fullPage: false });
      expect(problems).toEqual([]);
    },
  );

  it.each(WIDTHS)("an item's page and a comparison at %i px: no wider than the window", async (width) => {
    const { rows } = await api<ItemPage>(`/runs/${wideRun}/items?outcome=fail&pageSize=1`);
    const item = await open(`${server.url}/#/runs/${wideRun}/items/${encodeURIComponent(rows[0]!.key)}`, width);
    await item.page.locator("#checks").waitFor();
    await expectTablesInTheirBoxes(item.page, `item ${width}`);
    await item.page.screenshot({ path: join(SHOTS, `item-${width}.png`), fullPage: false });
    expect(item.problems).toEqual([]);

    const compare = await open(`${server.url}/#/runs/${wideRun}/compare?a=onsetlab&b=onsetlab-plus`, width);
    await compare.page.locator("#compare-rows").waitFor();
    await expectTablesInTheirBoxes(compare.page, `compare ${width}`);
    await compare.page.screenshot({ path: join(SHOTS, `compare-${width}.png`), fullPage: false });
    expect(compare.problems).toEqual([]);
  });
});
