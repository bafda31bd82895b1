/**
 * The web viewer on a run of conversations, in a real Chromium (src/view/chromium.ts; skipped loudly
 * without one): the item list lists the conversations, and a conversation's page shows it turn by turn —
 * each turn's user text, the scripted user's reply where the agent asked, its checks and its trace —
 * exactly as the API serves the record. The run is made in process (sim:oracle, a follow-up and a
 * clarification from the shipped conversation dataset).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunningServer } from "../../src/serve/server.ts";
import type { ItemPage } from "../../src/serve/service.ts";
import { skipWithoutChromium } from "../../src/view/chromium.ts";
import type { ItemDetail } from "../../src/view/web/types.ts";
import { benchRequest, REPO_ROOT } from "../support/bench-run.ts";
import { openViewerPage, startViewer, stopViewer } from "../support/viewer-server.ts";

const skipped = skipWithoutChromium("viewer conversation tests");
const TOKEN = "viewer-conversation-token";
const SHOTS = join("test", "output", "viewer");
const work = mkdtempSync(join(tmpdir(), "viewer-conversation-"));
const CONVERSATIONS = ["cv-fu-001", "cv-cl-001"];
let server: RunningServer;
let context: BrowserContext;
let runId: string;

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

const openPage = (hash: string) => openViewerPage({ server, context, token: TOKEN }, hash);

beforeAll(async () => {
  if (skipped) return;
  mkdirSync(SHOTS, { recursive: true });
  const results = join(work, "results");
  ({ runId } = await runBench({
    request: benchRequest({
      models: ["sim:oracle"],
      configs: ["native"],
      matrix: undefined,
      dataset: [join(REPO_ROOT, "datasets/conversations/conversations.jsonl")],
      filter: { id: CONVERSATIONS },
    }),
    resultsRoot: results,
    threads: 1,
  }));
  ({ server, context } = await startViewer(work, results, TOKEN));
}, 120_000);

afterAll(() => stopViewer({ server, context }, work));

describe.skipIf(skipped)("the web viewer on a run of conversations", () => {
  it("lists the conversations and shows one turn by turn with each turn's reply, checks and trace", async () => {
    const { page, problems } = await openPage(`#/runs/${runId}`);
    await page.locator("#items tbody tr").first().waitFor();
    expect(await page.locator("#items-section h2").textContent()).toBe("Conversations");
    const listed = await page.$$eval("#items tbody tr td:first-child", (cells) =>
      cells.map((cell) => cell.textContent),
    );
    expect(listed.sort()).toEqual([...CONVERSATIONS].sort());

    const rows = await api<ItemPage>(`/runs/${runId}/items`);
    const key = rows.rows.find((row) => row.itemId === "cv-cl-001")!.key;
    await page.locator(`#items tr[data-key="${key}"] a`).click();
    const record = await api<ItemDetail>(`/runs/${runId}/items/${encodeURIComponent(key)}`);
    const conversation = record.conversation!;
    await page.locator("section.turn").first().waitFor();
    expect(await page.locator("section.turn").count()).toBe(conversation.turns.length);
    for (const turn of conversation.turns) {
      const section = page.locator(`section.turn[data-turn="${turn.index + 1}"]`);
      expect(await section.locator("blockquote.user").textContent()).toBe(turn.user);
      // the clarify turn: the agent asked, and the scripted user's reply is shown
      if (turn.reply === undefined) expect(await section.locator(".reply").count()).toBe(0);
      else expect(await section.locator("blockquote.reply-text").textContent()).toBe(turn.reply);
      const checks = await section
        .locator("table tbody tr")
        .evaluateAll((trs) =>
          trs.map((tr) => ({ name: tr.getAttribute("data-check"), fail: tr.classList.contains("fail") })),
        );
      expect(checks).toEqual(record.turnChecks![turn.index]!.map((check) => ({ name: check.name, fail: !check.pass })));
      expect(checks.map((check) => check.name)).toContain("asked");
      // one trace per run of the agent in the turn, each with its model calls
      expect(await section.locator(".turn-run").count()).toBe(turn.runs.length);
      expect(await section.locator("details.model-call").count()).toBe(
        turn.runs.reduce((sum, run) => sum + run.modelCalls.length, 0),
      );
      expect(await section.locator("#trace-answer").last().textContent()).toContain(turn.runs.at(-1)!.answer);
    }
    expect(conversation.turns.some((turn) => turn.reply !== undefined)).toBe(true);
    await page.screenshot({ path: join(SHOTS, "conversation.png"), fullPage: true });
    expect(problems).toEqual([]);
  });
});
