/**
 * First paint of the viewer's run page on a big run (`perf view-page`): the real app serves the built
 * viewer (dist/view) and the run `perf view` uses, and a real Chromium opens `#/runs/ID` in a fresh page
 * each time. A load counts until the leaderboard and the first page of items are in the document and
 * painted (two animation frames after they appear), measured from the navigation's start. The first
 * load after the server starts (it builds the records index) is reported apart.
 */
import { existsSync } from "node:fs";
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
  /** The first load after the server started (the records index is built then). */
  coldMs: number;
  p50Ms: number;
  p95Ms: number;
  /** The browser's first contentful paint (the page's frame, before the data), p50. */
  firstContentfulPaintP50Ms: number;
  loads: number;
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
    const load = async (): Promise<{ ms: number; fcp: number }> => {
      const page = await context.newPage();
      await page.goto(`${server.url}/#/runs/${encodeURIComponent(runId)}`);
      await page.locator("#table-leaderboard").waitFor();
      await page.locator("#items tbody tr").first().waitFor();
      // runs in the page (a string: this project's types have no DOM): two frames later the content is painted
      const timing = (await page.evaluate(PAINTED)) as { ms: number; fcp: number };
      await page.close();
      return timing;
    };
    const cold = await load();
    const warm: { ms: number; fcp: number }[] = [];
    for (let index = 0; index < options.loads; index++) warm.push(await load());
    return {
      runId,
      records,
      builtRun: built,
      chromium: CHROMIUM,
      coldMs: cold.ms,
      p50Ms: percentile(
        warm.map((entry) => entry.ms),
        50,
      ),
      p95Ms: percentile(
        warm.map((entry) => entry.ms),
        95,
      ),
      firstContentfulPaintP50Ms: percentile(
        warm.map((entry) => entry.fcp),
        50,
      ),
      loads: options.loads,
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
      `${report.loads} loads in ${report.chromium}`,
    `first load (builds the records index)  ${ms(report.coldMs)}   target ≤ 1000 ms`,
    `run page painted p50/p95               ${ms(report.p50Ms)} / ${ms(report.p95Ms)}   target ≤ 1000 ms`,
    `first contentful paint p50             ${ms(report.firstContentfulPaintP50Ms)}`,
    "",
  ].join("\n");
}
