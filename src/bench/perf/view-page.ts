/**
 * First paint of the viewer's run page on a big run (`perf view-page`): the real app serves the built
 * viewer (dist/view) and the run `perf view` uses, and a real Chromium opens `#/runs/ID` in a fresh page
 * each time. From the navigation's start, two times per load: until the summary's part (leaderboard,
 * charts, tables) is painted — the run page's first paint — and until the first page of items is too
 * (two animation frames after each appears). The first load after the server starts (it builds the
 * records index) is reported apart.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { OnsetlabError } from "../../errors.ts";
import { createApp, VIEW_DIR } from "../../serve/app.ts";
import { benchQueryRunner } from "../../serve/query-runner.ts";
import { listen } from "../../serve/server.ts";
import { HarnessService } from "../../serve/service.ts";
import { CHROMIUM, launchChromium } from "../../view/chromium.ts";
import { percentile } from "../stats/percentile.ts";
import { PERF_VIEW_ROOT, perfViewRun } from "./view.ts";

export interface ViewPageOptions {
  records: number;
  /** Page loads after the first. */
  loads: number;
  root?: string;
}

export interface ViewPageReport {
  runId: string;
  records: number;
  builtRun: boolean;
  chromium: string;
  /** The first load after the server started (the server builds the records index for the items then). */
  coldSummaryMs: number;
  coldItemsMs: number;
  /** Until the summary's part (header, charts, tables) is painted. */
  summaryP50Ms: number;
  summaryP95Ms: number;
  /** Until the first page of items is painted as well. */
  itemsP50Ms: number;
  itemsP95Ms: number;
  /** The browser's first contentful paint (the page's frame, before the data), p50. */
  firstContentfulPaintP50Ms: number;
  loads: number;
  /** The machine's 1-minute load average when done (the figures are wall-clock). */
  loadAverage: number;
}

interface Load {
  summaryMs: number;
  itemsMs: number;
  fcp: number;
}

const PAINTED = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve({
  ms: performance.now(),
  fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
}))))`;

/** The page cannot be timed here: no Chromium, or the viewer not built (exit 1, saying what to do). */
export class ViewPagePerfError extends OnsetlabError {}

export async function measureViewPage(options: ViewPageOptions): Promise<ViewPageReport> {
  if (!CHROMIUM) {
    throw new ViewPagePerfError(
      "NO_CHROMIUM",
      "no Chromium (CHROMIUM_PATH, /usr/bin/chromium, playwright's cache): install Debian's chromium to time the page",
    );
  }
  if (!existsSync(join(VIEW_DIR, "index.html"))) {
    throw new ViewPagePerfError("VIEW_NOT_BUILT", `the viewer is not built (${VIEW_DIR}): run \`pnpm build\``);
  }
  const root = options.root ?? PERF_VIEW_ROOT;
  const { runId, built } = await perfViewRun(options.records, root);
  const service = new HarnessService({ resultsRoot: root });
  const records = service.listRuns().find((entry) => entry.runId === runId)!.records;
  const server = await listen(createApp({ service, runner: benchQueryRunner() }));
  const context = await launchChromium();
  try {
    const load = async (): Promise<Load> => {
      const page = await context.newPage();
      await page.goto(`${server.url}/#/runs/${encodeURIComponent(runId)}`);
      // runs in the page (a string: this project's types have no DOM): two frames later the content is painted
      await page.locator("#table-leaderboard").waitFor();
      const summary = (await page.evaluate(PAINTED)) as { ms: number; fcp: number };
      await page.locator("#items tbody tr").first().waitFor();
      const items = (await page.evaluate(PAINTED)) as { ms: number };
      await page.close();
      return { summaryMs: summary.ms, itemsMs: items.ms, fcp: summary.fcp };
    };
    const cold = await load();
    const warm: Load[] = [];
    for (let index = 0; index < options.loads; index++) warm.push(await load());
    const p = (pick: (entry: Load) => number, at: number) => percentile(warm.map(pick), at);
    return {
      runId,
      records,
      builtRun: built,
      chromium: CHROMIUM,
      coldSummaryMs: cold.summaryMs,
      coldItemsMs: cold.itemsMs,
      summaryP50Ms: p((entry) => entry.summaryMs, 50),
      summaryP95Ms: p((entry) => entry.summaryMs, 95),
      itemsP50Ms: p((entry) => entry.itemsMs, 50),
      itemsP95Ms: p((entry) => entry.itemsMs, 95),
      firstContentfulPaintP50Ms: p((entry) => entry.fcp, 50),
      loads: options.loads,
      loadAverage: loadavg()[0]!,
    };
  } finally {
    await context.close();
    await server.close();
  }
}

export function formatViewPagePerf(report: ViewPageReport): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  return [
    `viewer run page on run ${report.runId} (${report.records} records${report.builtRun ? ", built now" : ", reused"}), ` +
      `${report.loads} loads in ${report.chromium}; load average ${report.loadAverage.toFixed(1)}`,
    `run page painted p50/p95 (summary, charts, tables)  ${ms(report.summaryP50Ms)} / ${ms(report.summaryP95Ms)}   target ≤ 1000 ms`,
    `with its first page of items p50/p95                ${ms(report.itemsP50Ms)} / ${ms(report.itemsP95Ms)}`,
    `first load after start (index built): summary ${ms(report.coldSummaryMs)}, items ${ms(report.coldItemsMs)}`,
    `first contentful paint p50                          ${ms(report.firstContentfulPaintP50Ms)}`,
    "",
  ].join("\n");
}
