/**
 * The web viewer in a real Chromium (src/view/chromium.ts: never downloaded; skipped loudly without
 * one), driving the real server (createApp + listen) over a temporary results folder, with a token, so
 * every request the pages make must carry it. A small simulated bench is started through POST /bench; the
 * pages must show exactly what the API serves. Screenshots go to test/output/viewer/ (gitignored).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/serve/server.ts";
import type { ComparePage, ItemPage, RunDetail, RunListEntry } from "../../src/serve/service.ts";
import { skipWithoutChromium } from "../../src/view/chromium.ts";
import type { ItemDetail, QueryHit } from "../../src/view/web/types.ts";
import { openViewerPage, startViewer, stopViewer } from "../support/viewer-server.ts";

const skipped = skipWithoutChromium("viewer browser tests");
const TOKEN = "viewer-test-token";
const SHOTS = join("test", "output", "viewer");
const work = mkdtempSync(join(tmpdir(), "viewer-browser-"));
let server: RunningServer;
let context: BrowserContext;
let runId: string;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...init.headers },
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function finished(id: string): Promise<void> {
  for (;;) {
    const runs = await api<RunListEntry[]>("/runs");
    if (runs.some((run) => run.runId === id && !run.running && run.finishedAt)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const openPage = (hash: string) => openViewerPage({ server, context, token: TOKEN }, hash);

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

beforeAll(async () => {
  if (skipped) return;
  mkdirSync(SHOTS, { recursive: true });
  ({ server, context } = await startViewer(work, join(work, "results"), TOKEN));
  ({ runId } = await api<{ runId: string }>("/bench", {
    method: "POST",
    body: JSON.stringify({ models: ["sim:slm-3b"], configs: ["onsetlab", "onsetlab-plus"], limit: 24 }),
  }));
  await finished(runId);
}, 120_000);

afterAll(() => stopViewer({ server, context }, work));

describe.skipIf(skipped)("the web viewer in headless Chromium", () => {
  it("lists the run and opens its leaderboard: the numbers of its summary, charts for a simulated run", async () => {
    const { page, problems } = await openPage("#/runs");
    const row = page.locator(`#runs tr[data-run="${runId}"]`);
    await expect.poll(() => row.count(), { timeout: 60_000 }).toBe(1);
    expect(await row.textContent()).toContain("simulated");
    await shot(page, "runs");

    await row.locator("a").click();
    const leaderboard = page.locator("#table-leaderboard");
    await leaderboard.waitFor();
    const { summary } = await api<RunDetail>(`/runs/${runId}`);
    const cells = await page.$$eval("#table-leaderboard tbody tr", (trs) =>
      trs.map((tr) => {
        const headers = [...tr.closest("table")!.querySelectorAll("thead th")].map((th) => th.textContent);
        const task = tr.querySelectorAll("td")[headers.indexOf("task success [95% CI]")]!;
        return {
          config: tr.getAttribute("data-config"),
          k: task.getAttribute("data-k"),
          n: task.getAttribute("data-n"),
        };
      }),
    );
    expect(cells).toHaveLength(summary!.rows.length);
    for (const cell of cells) {
      const expected = summary!.rows.find((r) => r.config === cell.config)!;
      expect([cell.k, cell.n]).toEqual([String(expected.taskSuccess.k), String(expected.taskSuccess.n)]);
    }
    for (const id of ["section-ablations", "section-failures", "section-routing"]) {
      expect(await page.locator(`#${id}, p.empty`).count(), id).toBeGreaterThan(0);
    }
    await page.locator("#section-failures table").first().waitFor();
    await page.locator("#section-routing table").first().waitFor();
    // a simulated run: task success and failures charted, no latency axis
    expect(await page.locator("canvas#chart-success").count()).toBe(1);
    expect(await page.locator("canvas#chart-failures").count()).toBe(1);
    expect(await page.locator("canvas#chart-latency").count()).toBe(0);
    await shot(page, "run");
    expect(problems).toEqual([]);
  });

  it("opens an item's trace with its prompts expanded and its checks, saying which failed and why", async () => {
    const failed = await api<ItemPage>(`/runs/${runId}/items?outcome=fail&config=onsetlab`);
    expect(failed.total).toBeGreaterThan(0);
    const { page, problems } = await openPage(`#/runs/${runId}?outcome=fail&config=onsetlab`);
    await expect
      .poll(() => page.locator("#items tbody tr").count(), { timeout: 60_000 })
      .toBe(Math.min(failed.total, 50));
    const key = failed.rows[0]!.key;
    await page.locator(`#items tr[data-key="${key}"] a`).click();
    const record = await api<ItemDetail>(`/runs/${runId}/items/${encodeURIComponent(key)}`);

    const prompt = page.locator("details.model-call[open] pre[data-copy=prompt]").first();
    await prompt.waitFor();
    expect(await prompt.isVisible()).toBe(true);
    expect(await prompt.textContent()).toBe(record.result.modelCalls[0]!.prompt);
    expect(await page.locator("details.model-call").count()).toBe(record.result.modelCalls.length);
    const checks = await page.$$eval("#checks tbody tr", (trs) =>
      trs.map((tr) => ({
        name: tr.getAttribute("data-check"),
        fail: tr.classList.contains("fail"),
        why: tr.lastChild?.textContent,
      })),
    );
    expect(checks).toEqual(record.checks.map((check) => ({ name: check.name, fail: !check.pass, why: check.why })));
    expect(checks.some((check) => check.fail)).toBe(true);
    expect(await page.locator("#trace-answer").textContent()).toContain(record.result.answer);
    await shot(page, "item");
    expect(problems).toEqual([]);
  });

  it("compares two configurations item by item, and filters the comparison by category", async () => {
    const { page, problems } = await openPage(`#/runs/${runId}`);
    await page.locator("#compare-form").waitFor();
    await page.selectOption("#compare-form select[name=a]", "onsetlab");
    await page.selectOption("#compare-form select[name=b]", "onsetlab-plus");
    await page.locator("#compare-form button[type=submit]").click();
    await page.locator("#compare-counts").waitFor();
    const all = await api<ComparePage>(`/runs/${runId}/compare?a=onsetlab&b=onsetlab-plus`);
    for (const [name, count] of Object.entries(all.counts)) {
      expect(await page.locator(`[data-count=${name}]`).textContent(), name).toBe(String(count));
    }
    expect(await page.locator("#compare-rows tbody tr").count()).toBe(all.rows.length);

    const category = all.rows[0]!.category;
    await page.selectOption("select[name=category]", category);
    const filtered = await api<ComparePage>(`/runs/${runId}/compare?a=onsetlab&b=onsetlab-plus&category=${category}`);
    await expect
      .poll(() => page.locator("#compare-rows tbody tr").count(), { timeout: 60_000 })
      .toBe(filtered.rows.length);
    expect(filtered.rows.length).toBeLessThan(all.rows.length);
    const shown = await page.$$eval("#compare-rows tbody tr td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
    expect(new Set(shown)).toEqual(new Set([category]));
    await shot(page, "compare");
    expect(problems).toEqual([]);
  });

  it("starts a bench from the runs page and shows its live progress, then its results", async () => {
    const { page, problems } = await openPage("#/runs");
    await page.locator("#bench-form").waitFor();
    await page.selectOption("#bench-form select[name=model]", "sim:slm-7b");
    // every configuration: long enough (580 tasks) that the page sees it running on an idle machine too
    await page.selectOption("#bench-form select[name=matrix]", "all");
    await page.fill("#bench-form input[name=limit]", "20");
    await page.locator("#bench-form button[type=submit]").click();

    const live = page.locator("#live");
    await live.waitFor();
    await expect.poll(async () => Number(await live.getAttribute("data-done")), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await page.locator("#live-rates tbody tr").count()).toBeGreaterThan(0);
    expect(await live.locator(".count").textContent()).toMatch(/^\d+ \/ \d+ tasks$/);
    await shot(page, "live");
    // when the run finishes the page shows its results in place of the progress
    await page.locator("#table-leaderboard").waitFor({ timeout: 120_000 });
    expect(await live.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("the playground answers a dataset query with sim:oracle, showing each stage as it arrives", async () => {
    const hits = await api<QueryHit[]>("/queries?q=create%20issue&limit=50");
    const hit = hits.find((candidate) => candidate.category === "single")!;
    expect(hit).toBeDefined();
    const { page, problems } = await openPage("#/playground");
    await page.selectOption("#pg-model", "sim:oracle");
    await page.selectOption("#pg-config", "onsetlab-plus");
    await page.fill("#pg-query", "create issue");
    expect(await page.locator("#sim-note").textContent()).toContain("answers only the dataset's own queries");
    const pick = page.locator(`#sim-note button.query-pick[data-item="${hit.id}"]`);
    await pick.waitFor();
    await pick.click();
    expect(await page.inputValue("#pg-query")).toBe(hit.query);
    await page.locator("#playground button[type=submit]").click();

    await page.locator("#done").waitFor({ timeout: 60_000 });
    const stages = await page.$$eval("#stages li.stage", (items) =>
      items.map((item) => item.getAttribute("data-type")),
    );
    for (const type of [
      "route",
      "skill",
      "tools_shown",
      "model_call_start",
      "model_call_end",
      "plan",
      "wave",
      "tool_call",
      "tool_result",
      "answer",
    ]) {
      expect(stages, type).toContain(type);
    }
    expect(stages.indexOf("model_call_start")).toBeLessThan(stages.indexOf("tool_call"));
    expect(stages.at(-1)).toBe("answer");
    expect(
      await page.locator("#stages li[data-type=model_call_start] pre[data-copy=prompt]").first().textContent(),
    ).not.toBe("");
    expect(await page.locator("#score").textContent()).toContain(hit.id);
    expect(await page.locator("#score .badge-pass").count()).toBe(1);
    await shot(page, "playground");
    expect(problems).toEqual([]);
  });
});
