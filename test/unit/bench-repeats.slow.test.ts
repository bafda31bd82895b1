/**
 * `pnpm bench --repeats 4` on the simulator: the repeats differ (the simulator's seed moves with the
 * repeat), so pass^4 (every try succeeded) and pass@4 (at least one did) say something beside task
 * success; an item keeps its session's servers across its repeats.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { jsonSummary } from "../../src/cli/bench.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";
import { writeSample } from "../support/sample.ts";

const root = mkdtempSync(join(tmpdir(), "bench-repeats-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("--repeats 4", () => {
  it("reports pass^k and pass@k over items, as the records say", async () => {
    const { file, items } = writeSample(root, 2);
    const outcome = await runBench({
      request: benchRequest({ models: ["sim:slm-3b"], configs: ["onsetlab"], dataset: [file], repeats: 4 }),
      resultsRoot: root,
    });
    const records = strictRecordLines(outcome.dir);
    expect(records).toHaveLength(items.length * 4);

    const tries = new Map<string, boolean[]>();
    const sessions = new Map<string, Set<string>>();
    for (const record of records) {
      tries.set(record.itemId, [...(tries.get(record.itemId) ?? []), record.score.taskSuccess]);
      sessions.set(record.itemId, (sessions.get(record.itemId) ?? new Set()).add(record.session.servers.join(",")));
    }
    const all = [...tries.values()].filter((list) => list.every(Boolean)).length;
    const any = [...tries.values()].filter((list) => list.some(Boolean)).length;
    expect([...sessions.values()].every((set) => set.size === 1)).toBe(true);

    const row = outcome.summary.rows[0]!;
    expect(row.repeats).toMatchObject({
      k: 4,
      passHatK: { k: all, n: items.length },
      passAtK: { k: any, n: items.length },
    });
    // the tries differ: some item succeeded on some repeats only
    expect(all).toBeLessThan(any);
    expect(row.repeats!.passHatK.value!).toBeLessThanOrEqual(row.taskSuccess.value!);
    expect(row.taskSuccess.value!).toBeLessThanOrEqual(row.repeats!.passAtK.value!);
    expect(row.repeats!.passHatK.lo!).toBeLessThan(row.repeats!.passHatK.value!);

    const json = jsonSummary(outcome.summary).rows as Record<string, unknown>[];
    expect(json[0]).toMatchObject({ repeats: 4, passHatK: all / items.length, passAtK: any / items.length });
  }, 120_000);
});
