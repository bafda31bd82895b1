/**
 * BFCL multi-turn entries through the run (its loop, store and summary) and through the conversation
 * runner, in-process, on a few entries: a `bfcl:` spec is a conversation dataset exactly when it names
 * multi-turn categories; the oracle passes entries under BFCL's checker in native and jsonl; miss_func's held-back function is offered from
 * its turn only; a turn without the calls it needs fails with BFCL's error type; calls in a turn whose
 * ground truth is empty are counted apart and do not fail the entry by themselves.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchRequest } from "../../../test/support/bench-run.ts";
import { ADDITIONAL_FUNCTION_PROMPT, multiTurnCategoriesOf, truthCall } from "../../bfcl/multi-turn/conversation.ts";
import { MultiTurnDataset, withBfclTurnLimits } from "../../bfcl/multi-turn/conversation-run.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../../bfcl/paths.ts";
import { sharedBfclPresent } from "../../bfcl/testing/shared.ts";
import { loadModelsConfig, resolveConfiguration, resolveModel } from "../../config/models-yaml.ts";
import { createProvider } from "../../models/factory.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import { runConversation } from "../conversation/run-conversation.ts";
import { resolveWork, runBench } from "./bench.ts";
import type { BenchRequest } from "./run-file-types.ts";
import { forEachRunRecord } from "./run-format.ts";
import { runFile } from "./store.ts";

const present = sharedBfclPresent("BFCL v4 multi-turn conversation test", DEFAULT_BFCL_V4_DATA_DIR);

describe("multiTurnCategoriesOf", () => {
  it("reads bfcl:multi_turn as the four categories, leaves single-turn specs alone, refuses a mix", () => {
    expect(multiTurnCategoriesOf(["bfcl:multi_turn"])).toEqual([
      "multi_turn_base",
      "multi_turn_miss_func",
      "multi_turn_miss_param",
      "multi_turn_long_context",
    ]);
    expect(multiTurnCategoriesOf(["bfcl:multi_turn_base,multi_turn_base"])).toEqual(["multi_turn_base"]);
    expect(multiTurnCategoriesOf(["bfcl:simple"])).toBeUndefined();
    expect(() => multiTurnCategoriesOf(["bfcl:multi_turn_base,simple"])).toThrow(/run them in two commands/);
  });
});

const request = (dataset: string, first: number): BenchRequest =>
  benchRequest({ models: ["sim:oracle"], configs: ["native"], matrix: undefined, dataset: [dataset], first });

describe.skipIf(!present)("a bfcl: spec in the run", () => {
  const results = mkdtempSync(join(tmpdir(), "onsetlab-bfcl-mt-run-"));
  afterAll(() => rmSync(results, { recursive: true, force: true }));

  it("names categories, never a file: single-turn ones as items, multi-turn ones as conversations", () => {
    const models = loadModelsConfig();
    const single = resolveWork({ request: request("bfcl:simple,live_simple", 2), resultsRoot: results }, models);
    expect(single.items.map((item) => item.id)).toEqual(["simple_0", "simple_1"]);
    expect(single.conversations).toBeUndefined();
    const multi = resolveWork({ request: request("bfcl:multi_turn_base", 2), resultsRoot: results }, models);
    expect(multi.conversations?.map((conversation) => conversation.id)).toEqual([
      "multi_turn_base_0",
      "multi_turn_base_1",
    ]);
    expect(multi.items.map((item) => item.id)).toEqual(["multi_turn_base_0", "multi_turn_base_1"]);
    expect(() =>
      resolveWork({ request: { ...request("bfcl:multi_turn_base", 2), dryRun: true }, resultsRoot: results }, models),
    ).toThrow(/--dry-run: BFCL's checker grades a multi-turn entry by the state/);
  });

  it("runs each entry as a task: BFCL's verdict in its record, BFCL's figures in the summary's row", async () => {
    const outcome = await runBench({ request: request("bfcl:multi_turn_miss_func", 2), resultsRoot: results });
    expect(outcome.failures).toEqual([]);
    const verdicts: unknown[] = [];
    forEachRunRecord(runFile(outcome.dir, "records"), (record) => verdicts.push(record.bfcl));
    expect(verdicts).toEqual([
      expect.objectContaining({ category: "multi_turn_miss_func", valid: true }),
      expect.objectContaining({ category: "multi_turn_miss_func", valid: true }),
    ]);
    const [row] = outcome.summary.conversations?.rows ?? [];
    expect(row?.bfcl).toMatchObject({
      accuracy: { k: 2, n: 2 },
      byCategory: { multi_turn_miss_func: { k: 2, n: 2 } },
      errorTypes: {},
      callsInEmptyTurns: 0,
    });
  }, 60_000);
});

describe.skipIf(!present)("BFCL multi-turn entries as conversations", () => {
  const models = loadModelsConfig();
  const oracle = resolveModel(models, "sim:oracle");
  const configOf = (configName: string) =>
    withBfclTurnLimits(resolveConfiguration(models, { model: oracle, configName }));

  const run = async (
    dataset: MultiTurnDataset,
    id: string,
    configName: string,
    gold?: (items: SimGoldItem[]) => SimGoldItem[],
  ) => {
    const conversation = dataset.conversations.find((c) => c.id === id)!;
    const entryRun = await dataset.open(conversation);
    const own = dataset.goldOf(conversation);
    const toolsByTurn: string[][] = [];
    const session = {
      get tools() {
        return entryRun.session.tools;
      },
      runStateChecks: entryRun.session.runStateChecks,
      beforeTurn: (index: number) => {
        entryRun.session.beforeTurn(index);
        toolsByTurn.push(entryRun.session.tools.listTools().map((tool) => tool.name));
      },
    };
    try {
      const record = await runConversation({
        conversation,
        session,
        model: createProvider(oracle, { gold: gold ? gold(own) : own, seed: 1 }),
        config: configOf(configName),
        scriptedUser: false,
        scoreTurn: (turn) => entryRun.scoreTurn(turn),
      });
      return { record, verdict: entryRun.verdict(record.turns.length), toolsByTurn };
    } finally {
      await entryRun.close();
    }
  };

  it("the oracle passes base entries in native and jsonl, graded by BFCL's checker", async () => {
    const dataset = new MultiTurnDataset(["multi_turn_base"]);
    for (const config of ["native", "jsonl"])
      for (const id of ["multi_turn_base_0", "multi_turn_base_39", "multi_turn_base_65"]) {
        const { record, verdict } = await run(dataset, id, config);
        expect(verdict, `${id} ${config}`).toMatchObject({ valid: true, callsInEmptyTurns: 0 });
        expect(record.success).toBe(true);
      }
  }, 60_000);

  it("miss_func offers the held-back function from its turn, whose user text is BFCL's prompt", async () => {
    const dataset = new MultiTurnDataset(["multi_turn_miss_func"]);
    // miss_func_0 holds back `sort` until turn 3
    const { record, verdict, toolsByTurn } = await run(dataset, "multi_turn_miss_func_0", "native");
    expect(toolsByTurn.map((names) => names.includes("sort"))).toEqual([false, false, false, true, true]);
    expect(record.turns[3]?.user).toBe(ADDITIONAL_FUNCTION_PROMPT);
    expect(verdict).toMatchObject({ valid: true, emptyTurns: 1, emptyTurnsWithCalls: 0 });
  }, 60_000);

  it("a turn with no call where the ground truth has some fails as BFCL's empty_turn_model_response", async () => {
    const dataset = new MultiTurnDataset(["multi_turn_base"]);
    const { verdict, record } = await run(dataset, "multi_turn_base_0", "native", (items) =>
      items.map((item, index) => (index === 1 ? { ...item, calls: [], category: "clarify", route: "direct" } : item)),
    );
    expect(verdict).toMatchObject({ valid: false, errorType: "multi_turn:empty_turn_model_response", turn: 1 });
    expect(record.firstFailingTurn).toBe(1);
  }, 60_000);

  it("calls in a miss_param turn whose ground truth is empty are counted apart, not failed", async () => {
    const dataset = new MultiTurnDataset(["multi_turn_miss_param"]);
    // miss_param_0: turn 3 lacks the file name; calling a look-up there leaves the state as it was
    const { verdict } = await run(dataset, "multi_turn_miss_param_0", "native", (items) =>
      items.map((item, index) =>
        index === 3
          ? { ...item, calls: [truthCall("pwd()", ["GorillaFileSystem"])], category: "single", route: "rewoo" }
          : item,
      ),
    );
    expect(verdict).toMatchObject({ valid: true, emptyTurns: 1, emptyTurnsWithCalls: 1, callsInEmptyTurns: 1 });
  }, 60_000);
});
