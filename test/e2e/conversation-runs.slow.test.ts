/**
 * Conversation runs in the standard run store, in process on the simulator: a run stopped part-way and
 * resumed ends with the same records and summary as one never stopped; two shards merged equal the
 * whole run; the gate, with a baseline of a run, fails a run whose conversations succeed less often.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfigInput } from "../../src/agent/index.ts";
import type { ConversationItem } from "../../src/bench/dataset/types.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunSummary } from "../../src/bench/run/compare-configs.ts";
import type { Shard } from "../../src/bench/run/matrix.ts";
import { mergeRuns } from "../../src/bench/run/merge.ts";
import { findRecord } from "../../src/bench/run/record-view.ts";
import type { StoredRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJson, readJsonl } from "../../src/bench/run/store.ts";
import { buildBaseline, DEFAULT_POLICY } from "../../src/report/baseline.ts";
import { checkSameMatrix, runGate } from "../../src/report/gate.ts";
import { loadOutcomes, mergeOutcomes } from "../../src/report/outcomes.ts";
import { buildReport } from "../../src/report/report.ts";
import { loadRunSet } from "../../src/report/runs.ts";
import { benchRequest, REPO_ROOT, recordContents } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-conversation-runs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DATASET = join(REPO_ROOT, "datasets/conversations/conversations.jsonl");
const CONVERSATIONS = 6;

function request(changes: { shard?: Shard; repeats?: number } = {}) {
  return benchRequest({
    models: ["sim:slm-3b"],
    configs: ["onsetlab-plus", "native"],
    matrix: undefined,
    dataset: [DATASET],
    first: CONVERSATIONS,
    repeats: changes.repeats ?? 2,
    ...(changes.shard ? { shard: changes.shard } : {}),
  });
}

async function bench(options: { shard?: Shard; cli?: AgentConfigInput; repeats?: number; signal?: AbortSignal } = {}) {
  return runBench({
    request: request(options),
    threads: 1,
    resultsRoot: root,
    ...(options.cli ? { cli: options.cli } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** The summary's scores (its times differ between sessions of the same work). */
function comparable(summary: RunSummary) {
  return {
    records: summary.records,
    rows: summary.rows.map(({ model, config, taskSuccess, toolChoice, callAccuracy, stateAccuracy }) => ({
      model,
      config,
      taskSuccess,
      toolChoice,
      callAccuracy,
      stateAccuracy,
    })),
    conversations: summary.conversations,
  };
}

let whole: Awaited<ReturnType<typeof bench>>;
beforeAll(async () => {
  whole = await bench();
});

describe("conversation runs in the run store", () => {
  it("writes one conversation record per task and a conversation block in the summary", async () => {
    const { rows } = readJsonl<StoredRecord>(join(whole.dir, RUN_FILES.records));
    expect(rows).toHaveLength(CONVERSATIONS * 2 * 2);
    for (const record of rows) {
      expect(record.category).toBe("conversation");
      const conversation = record.conversation!;
      expect(conversation.id).toBe(record.itemId);
      expect(conversation.turns.length).toBeGreaterThan(0);
      expect(record.score.taskSuccess).toBe(conversation.success);
      for (const turn of conversation.turns) expect(turn.runs.length).toBeGreaterThan(0);
    }
    const block = whole.summary.conversations!;
    expect(block.rows.map((row) => row.config)).toEqual(["onsetlab-plus", "native"]);
    for (const row of block.rows) {
      // the summary's task success is the conversations' success
      const standard = whole.summary.rows.find((entry) => entry.config === row.config)!;
      expect([standard.taskSuccess.k, standard.taskSuccess.n]).toEqual([row.success.k, row.success.n]);
      expect(row.repeats?.k).toBe(2);
      expect(row.byTurnIndex.length).toBeGreaterThan(1);
    }
    const disk = readJson<RunSummary>(join(whole.dir, RUN_FILES.summary), "summary.json");
    expect(disk.conversations).toEqual(block);
    // the report's conversation section: per kind, by turn index, failure classes
    const section = buildReport(loadRunSet([whole.dir], root)).sections.find((entry) => entry.id === "conversations");
    expect(section?.tables.map((table) => table.id)).toEqual([
      "conversations",
      "conversation-turns",
      "conversation-failures",
    ]);
    expect(section?.tables[0]?.rows).toHaveLength(2);
  });

  it("stores each trace once and joins the turns' runs back for readers", () => {
    const { rows } = readJsonl<StoredRecord>(join(whole.dir, RUN_FILES.records));
    for (const stored of rows) {
      const runs = stored.conversation!.turns.flatMap((turn) => turn.runs);
      // one trace per run: no joined copy of the conversation beside them
      expect(stored.result).toBeUndefined();
      expect(JSON.stringify(stored).split('"modelCalls":[').length - 1).toBe(runs.length);
      const read = findRecord(whole.dir, whole.runId, stored.key);
      expect(read.result.modelCalls).toHaveLength(runs.reduce((sum, run) => sum + run.modelCalls.length, 0));
      expect(read.result.toolCalls).toEqual(runs.flatMap((run) => run.toolCalls));
      expect(read.result.answer).toBe(runs.at(-1)!.answer);
    }
  });

  it("resumes a stopped run to the records and summary of one never stopped", async () => {
    const controller = new AbortController();
    let seen = 0;
    const stopped = await runBench({
      request: request(),
      threads: 1,
      resultsRoot: root,
      signal: controller.signal,
      onProgress: () => {
        if (++seen === 5) controller.abort(new Error("stopped by the test"));
      },
    });
    expect(stopped.summary.records).toBeLessThan(whole.summary.records);
    const resumed = await runBench({ request: request(), resume: stopped.runId, threads: 1, resultsRoot: root });
    expect(resumed.skipped).toBe(stopped.summary.records);
    expect(recordContents(resumed.dir)).toEqual(recordContents(whole.dir));
    expect(comparable(resumed.summary)).toEqual(comparable(whole.summary));
  });

  it("merges two shards into the whole run", async () => {
    const first = await bench({ shard: { index: 1, count: 2 } });
    const second = await bench({ shard: { index: 2, count: 2 } });
    expect(first.summary.records + second.summary.records).toBe(whole.summary.records);
    const merged = mergeRuns({ runIds: [first.runId, second.runId], root });
    expect(recordContents(merged.dir)).toEqual(recordContents(whole.dir));
    expect(comparable(merged.summary)).toEqual(comparable(whole.summary));
  });

  it("fails the gate on a run whose conversations succeed less often", async () => {
    const good = await bench({ repeats: 1 });
    // one tool shown, by the ranking alone (a selector call would put the gold tool first): most turns miss it
    const worse = await bench({ repeats: 1, cli: { filter: 1, toolSelection: "ranked" } });
    const [before, after] = [good, worse].map((run) => run.summary.conversations!.rows[0]!.success.k);
    expect(after).toBeLessThan(before!);
    const baselineSet = loadRunSet([good.dir], root);
    const baseline = buildBaseline(
      baselineSet,
      mergeOutcomes(baselineSet.runs.map(loadOutcomes)),
      DEFAULT_POLICY,
      "baseline.json",
    );
    const sameSet = loadRunSet([good.dir], root);
    expect(runGate(baseline, sameSet, mergeOutcomes(sameSet.runs.map(loadOutcomes))).failures).toEqual([]);
    const worseSet = loadRunSet([worse.dir], root);
    const outcomes = mergeOutcomes(worseSet.runs.map(loadOutcomes));
    checkSameMatrix(baseline, worseSet, outcomes, "baseline.json");
    const failures = runGate(baseline, worseSet, outcomes).failures;
    expect(
      failures.some(
        (check) => check.config === "onsetlab-plus" && check.metric === "taskSuccess" && check.verdict === "regressed",
      ),
    ).toBe(true);
  });
});

describe("--user-model in a run", () => {
  it("carries the model to the conversation task: the replies it gave name it, the summary says so", async () => {
    const outcome = await runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["native"],
        matrix: undefined,
        dataset: [DATASET],
        // two clarify conversations: the oracle asks on their ask turns, and the user model answers
        filter: { id: ["cv-cl-001", "cv-cl-002"] },
        userModel: "sim:oracle",
      }),
      threads: 1,
      resultsRoot: root,
    });
    expect(outcome.summary.conversations?.userModel).toBe("sim:oracle");
    expect(outcome.manifest.request.userModel).toBe("sim:oracle");
    const { rows: records } = readJsonl<StoredRecord>(join(outcome.dir, RUN_FILES.records));
    const replies = records.flatMap((record) => record.conversation!.turns.filter((turn) => turn.reply !== undefined));
    expect(replies.length).toBeGreaterThan(0);
    for (const turn of replies) expect(turn.replyBy).toBe("sim:oracle");
    for (const record of records) expect(record.conversation!.userModel).toBe("sim:oracle");
  });

  it("sim:slm-3b as the user: it answers as the user, and task success stays within a few points of the scripted user's", async () => {
    // every conversation with a turn that needs a question: where the user is asked something
    const clarifying = readJsonl<ConversationItem>(DATASET)
      .rows.filter((conversation) => conversation.turns.some((turn) => turn.ask))
      .map((conversation) => conversation.id);
    const run = (userModel?: string) =>
      runBench({
        request: benchRequest({
          models: ["sim:slm-3b"],
          configs: ["native", "onsetlab-plus"],
          matrix: undefined,
          dataset: [DATASET],
          filter: { id: clarifying },
          ...(userModel ? { userModel } : {}),
        }),
        threads: 1,
        resultsRoot: root,
      });
    const scripted = await run();
    const played = await run("sim:slm-3b");
    const { rows: records } = readJsonl<StoredRecord>(join(played.dir, RUN_FILES.records));
    const replies = records.flatMap((record) => record.conversation!.turns.filter((turn) => turn.reply !== undefined));
    expect(replies.length).toBeGreaterThanOrEqual(20);
    for (const turn of replies) {
      expect(turn.replyBy).toBe("sim:slm-3b");
      // a user's words: no plan step, ReAct action, protocol line or the simulator's own refusal
      expect(turn.reply).not.toMatch(/#E\d|Action:|Final Answer:|"type":|I could not get|Simulated:/);
    }
    const success = (summary: RunSummary) =>
      Object.fromEntries(summary.conversations!.rows.map((row) => [row.config, row.success.value]));
    const before = success(scripted.summary);
    const after = success(played.summary);
    for (const config of ["native", "onsetlab-plus"]) {
      expect(Math.abs((after[config] as number) - (before[config] as number))).toBeLessThanOrEqual(0.05);
    }
  });

  it("is refused on a dataset of single-turn items, before any run folder is made", async () => {
    const empty = mkdtempSync(join(tmpdir(), "onsetlab-user-model-"));
    try {
      await expect(
        runBench({
          request: benchRequest({ first: 1, userModel: "sim:oracle" }),
          resultsRoot: empty,
        }),
      ).rejects.toMatchObject({ code: "BAD_FLAG", message: expect.stringContaining("--user-model") });
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
