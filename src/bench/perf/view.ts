/**
 * Speed of the viewer's item API on a big run: builds (or reuses) a 5,000-record simulator run, serves it
 * with the real app on 127.0.0.1, and times item pages (`/runs/:id/items?page=…`, with and without
 * filters) and single records (`/runs/:id/items/:key`) over HTTP. The first page, which builds the
 * records index, is reported apart. Then the runs list (`/runs`) with the same run unfinished, as a bench
 * under way in another process leaves it: its records must be counted, not read from a summary.
 */
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../serve/app.ts";
import { benchQueryRunner } from "../../serve/query-runner.ts";
import { listen } from "../../serve/server.ts";
import { HarnessService, type ItemPage } from "../../serve/service.ts";
import { runBench } from "../run/bench.ts";
import { readManifest } from "../run/manifest.ts";
import { RUN_FILES, writeJsonAtomic } from "../run/store.ts";
import { percentile } from "../stats/percentile.ts";

export interface ViewPerfOptions {
  /** Records the run must have (default 5000). */
  records: number;
  /** Requests of each kind. */
  requests: number;
  /** Where the run is kept between measurements (default: the system temp folder). */
  root?: string;
}

export interface ViewPerfReport {
  runId: string;
  records: number;
  builtRun: boolean;
  firstPageMs: number;
  pageP50Ms: number;
  pageP95Ms: number;
  filteredP50Ms: number;
  filteredP95Ms: number;
  itemP50Ms: number;
  itemP95Ms: number;
  /** `/runs` with the run unfinished: the first request of a fresh server, then the others. */
  runsListFirstMs: number;
  runsListP50Ms: number;
  runsListP95Ms: number;
  /** The unfinished run's records as `/runs` counted them. */
  runsListRecords: number;
  requests: number;
}

const CONFIGS = ["onsetlab", "onsetlab-plus"];
const ITEMS = 500;

/** Where the timed run is kept between measurements (`perf view` and `perf view-page` share it). */
export const PERF_VIEW_ROOT = join(tmpdir(), "onsetlab-perf-view");

/** A finished simulator run under `root` with at least `records` records: reused when there is one, else made now. */
export async function perfViewRun(records: number, root: string): Promise<{ runId: string; built: boolean }> {
  mkdirSync(root, { recursive: true });
  const found = new HarnessService({ resultsRoot: root })
    .listRuns()
    .find((entry) => entry.records >= records && entry.finishedAt);
  if (found) return { runId: found.runId, built: false };
  const repeats = Math.ceil(records / (ITEMS * CONFIGS.length));
  const outcome = await runBench({
    request: {
      models: ["sim:slm-3b"],
      configs: CONFIGS,
      dataset: [],
      filter: {},
      limit: ITEMS,
      seed: 1,
      repeats,
      transport: "memory",
    },
    resultsRoot: root,
  });
  return { runId: outcome.runId, built: true };
}

export async function measureView(options: ViewPerfOptions): Promise<ViewPerfReport> {
  const root = options.root ?? PERF_VIEW_ROOT;
  const { runId, built: builtRun } = await perfViewRun(options.records, root);
  // a fresh service: the first page builds the index, as after a server start
  const server = await listen(
    createApp({ service: new HarnessService({ resultsRoot: root }), runner: benchQueryRunner() }),
  );
  try {
    const base = `${server.url}/runs/${runId}`;
    const timed = (path: string) => timedGet(`${base}${path}`);
    const first = await timed("/items?page=1");
    const pages = Math.ceil((first.body as ItemPage).total / 50);
    const pick = (count: number, index: number) => ((index * 7919) % count) + 1;
    const pageTimes: number[] = [];
    const filteredTimes: number[] = [];
    const keys: string[] = [];
    for (let index = 0; index < options.requests; index++) {
      const page = await timed(`/items?page=${pick(pages, index)}`);
      pageTimes.push(page.ms);
      keys.push(...(page.body as ItemPage).rows.slice(0, 1).map((row) => row.key));
      const config = CONFIGS[index % CONFIGS.length];
      const outcome = index % 2 === 0 ? "fail" : "pass";
      filteredTimes.push((await timed(`/items?config=${config}&outcome=${outcome}&page=${pick(5, index)}`)).ms);
    }
    const itemTimes: number[] = [];
    for (let index = 0; index < options.requests; index++) {
      itemTimes.push((await timed(`/items/${encodeURIComponent(keys[index % keys.length]!)}`)).ms);
    }
    const listing = await measureRunsList(join(root, runId), options.requests);
    return {
      runId,
      records: (first.body as ItemPage).total,
      builtRun,
      firstPageMs: first.ms,
      pageP50Ms: percentile(pageTimes, 50),
      pageP95Ms: percentile(pageTimes, 95),
      filteredP50Ms: percentile(filteredTimes, 50),
      filteredP95Ms: percentile(filteredTimes, 95),
      itemP50Ms: percentile(itemTimes, 50),
      itemP95Ms: percentile(itemTimes, 95),
      ...listing,
      requests: options.requests,
    };
  } finally {
    await server.close();
  }
}

/** One GET of the viewer's API and its JSON body, timed; a failed request stops the measurement. */
async function timedGet(url: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

/** Times `/runs` over a results folder holding the run as if under way (no summary, no finishedAt). */
async function measureRunsList(
  dir: string,
  requests: number,
): Promise<Pick<ViewPerfReport, "runsListFirstMs" | "runsListP50Ms" | "runsListP95Ms" | "runsListRecords">> {
  const root = mkdtempSync(join(tmpdir(), "onsetlab-perf-runs-"));
  try {
    const { finishedAt: _finished, ...manifest } = readManifest(dir);
    const copy = join(root, manifest.runId);
    mkdirSync(copy);
    writeJsonAtomic(join(copy, RUN_FILES.run), manifest);
    try {
      linkSync(join(dir, RUN_FILES.records), join(copy, RUN_FILES.records));
    } catch {
      copyFileSync(join(dir, RUN_FILES.records), join(copy, RUN_FILES.records));
    }
    const server = await listen(
      createApp({ service: new HarnessService({ resultsRoot: root }), runner: benchQueryRunner() }),
    );
    try {
      const list = async (): Promise<{ ms: number; records: number }> => {
        const { ms, body } = await timedGet(`${server.url}/runs`);
        const runs = body as { records: number }[];
        if (runs.length !== 1) throw new Error(`/runs: ${runs.length} runs listed, not 1`);
        return { ms, records: runs[0]!.records };
      };
      const first = await list();
      const times: number[] = [];
      for (let index = 0; index < requests; index++) times.push((await list()).ms);
      return {
        runsListFirstMs: first.ms,
        runsListP50Ms: percentile(times, 50),
        runsListP95Ms: percentile(times, 95),
        runsListRecords: first.records,
      };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function formatViewPerf(report: ViewPerfReport): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `viewer API on run ${report.runId} (${report.records} records${report.builtRun ? ", built now" : ", reused"}), ${report.requests} requests each`,
    `first page (builds the index)  ${ms(report.firstPageMs)}`,
    `item page p50/p95              ${ms(report.pageP50Ms)} / ${ms(report.pageP95Ms)}   target p95 ≤ 100 ms`,
    `filtered page p50/p95          ${ms(report.filteredP50Ms)} / ${ms(report.filteredP95Ms)}   target p95 ≤ 100 ms`,
    `one record p50/p95             ${ms(report.itemP50Ms)} / ${ms(report.itemP95Ms)}   target p95 ≤ 100 ms`,
    `runs list, the run unfinished (${report.runsListRecords} records counted)`,
    `  first request                ${ms(report.runsListFirstMs)}`,
    `  then p50/p95                 ${ms(report.runsListP50Ms)} / ${ms(report.runsListP95Ms)}`,
    "",
  ].join("\n");
}
