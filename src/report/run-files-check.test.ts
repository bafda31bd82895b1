import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_FILES } from "../bench/run/store.ts";
import { readRunLines, writeRunLines } from "../bench/run/testing/run-lines.ts";
import { InputError } from "../errors.ts";
import { loadOutcomes, writeOutcomesFile } from "./outcomes.ts";
import { loadRun } from "./runs.ts";
import { syntheticRun, writeSyntheticRun } from "./testing/synthetic-run.ts";

function onDisk() {
  const root = mkdtempSync(join(tmpdir(), "run-files-"));
  const dir = writeSyntheticRun(
    root,
    syntheticRun({
      id: "run-f",
      configs: [
        { name: "onsetlab", succeed: [0, 1, 2, 5] },
        { name: "native", succeed: [1, 3], agent: { strategy: "native" } },
      ],
      items: 6,
    }),
  );
  return { root, dir };
}

const edit = (file: string, change: (value: Record<string, unknown>) => void) => {
  const value = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  change(value);
  writeFileSync(file, JSON.stringify(value));
};

describe("a run's files checked against each other", () => {
  it("reads a run whose summary is that of its records, or of its outcomes.json once the records are gone", () => {
    const { root, dir } = onDisk();
    const run = loadRun("run-f", root);
    writeOutcomesFile(run, loadOutcomes(run));
    rmSync(join(dir, RUN_FILES.records));
    expect(loadRun("run-f", root).summary.records).toBe(12);
    // neither file: nothing to check the summary against
    rmSync(join(dir, RUN_FILES.outcomes));
    expect(loadRun("run-f", root).summary.records).toBe(12);
  });

  const cases: { name: string; damage: (dir: string) => void; message: (dir: string) => string | RegExp }[] = [
    {
      name: "an empty records.jsonl.gz",
      damage: (dir) => writeFileSync(join(dir, RUN_FILES.records), ""),
      message: (dir) => `${dir}/summary.json: counts 12 records, ${dir}/records.jsonl.gz has 0`,
    },
    {
      name: "a record fewer than the summary counts",
      damage: (dir) => writeRunLines(dir, "records", readRunLines(dir, "records").slice(1)),
      message: (dir) => `${dir}/summary.json: counts 12 records, ${dir}/records.jsonl.gz has 11`,
    },
    {
      name: "a damaged line",
      damage: (dir) =>
        writeRunLines(
          dir,
          "records",
          readRunLines(dir, "records").map((line, index) => (index === 2 ? "{garbage" : line)),
        ),
      message: (dir) => `${dir}/records.jsonl.gz:3: not valid JSON`,
    },
    {
      name: "a record twice",
      damage: (dir) =>
        writeRunLines(dir, "records", [...readRunLines(dir, "records").slice(0, 11), readRunLines(dir, "records")[4]!]),
      message: (dir) => `${dir}/records.jsonl.gz:12: record sim:slm-3b|onsetlab|gh-004|0 is also at line 5`,
    },
    {
      name: "a record of another matrix",
      damage: (dir) =>
        writeRunLines(
          dir,
          "records",
          readRunLines(dir, "records").map((line) => line.replaceAll('"native"', '"react"')),
        ),
      message: (dir) => `${dir}/records.jsonl.gz:7: record sim:slm-3b|native|gh-000|0 is not in the run's matrix`,
    },
    {
      name: "a summary count changed by hand",
      damage: (dir) =>
        edit(join(dir, RUN_FILES.summary), (summary) => {
          ((summary.rows as { taskSuccess: { k: number } }[])[1]!.taskSuccess.k as number) += 1;
        }),
      message: (dir) =>
        `${dir}/summary.json: sim:slm-3b × native taskSuccess is 3/6, ${dir}/records.jsonl.gz gives 2/6`,
    },
    {
      name: "the summary of another run",
      damage: (dir) => edit(join(dir, RUN_FILES.summary), (summary) => Object.assign(summary, { runId: "run-g" })),
      message: (dir) => `${dir}/summary.json: the summary of run run-g, but run.json is run run-f`,
    },
    {
      name: "a summary without rows",
      damage: (dir) => edit(join(dir, RUN_FILES.summary), (summary) => delete summary.rows),
      message: (dir) => new RegExp(`^${dir}/summary\\.json: not a summary\\.json of this harness: rows: `),
    },
    {
      name: "outcomes.json that disagrees with the summary",
      damage: (dir) => {
        const run = loadRun("run-f", join(dir, ".."));
        const outcomes = loadOutcomes(run);
        outcomes.entries[0]!.binary.taskSuccess = "000000";
        writeOutcomesFile(run, outcomes);
        rmSync(join(dir, RUN_FILES.records));
      },
      message: (dir) => `${dir}/summary.json: sim:slm-3b × onsetlab taskSuccess is 4/6, ${dir}/outcomes.json gives 0/6`,
    },
  ];

  it.each(cases)("stops on $name, naming the file (and line)", ({ damage, message }) => {
    const { root, dir } = onDisk();
    damage(dir);
    let error: unknown;
    try {
      loadRun("run-f", root);
    } catch (caught) {
      error = caught;
    }
    // bad input (exit 2), never a crash
    expect(error).toBeInstanceOf(InputError);
    const expected = message(dir);
    if (typeof expected === "string") expect((error as Error).message).toContain(expected);
    else expect((error as Error).message).toMatch(expected);
  });
});
