/**
 * `--until-significant A,B` on the simulator: a pair with a large planted difference (the faithful
 * onsetlab against this project's onsetlab-plus, about 20 points apart on sim:slm-3b) stops early; a
 * configuration against its exact twin runs to the end; a resumed decided run runs nothing more.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap } from "yaml";
import { runBench } from "../../src/bench/run/bench.ts";
import { readManifest } from "../../src/bench/run/manifest.ts";
import { readRunLines, writeRunLines } from "../../src/bench/run/testing/run-lines.ts";
import { InputError } from "../../src/errors.ts";
import { benchRequest, shippedModelsYaml, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "until-significant-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The repository's models.yaml plus `onsetlab-twin`, a copy of `onsetlab` under another name. */
function twinModelsFile(): string {
  const document = parseDocument(shippedModelsYaml());
  const configurations = document.get("configurations") as YAMLMap;
  configurations.set("onsetlab-twin", configurations.get("onsetlab"));
  const file = join(root, "models.yaml");
  writeFileSync(file, document.toString());
  return file;
}

const sequential = (a: string, b: string) => ({ a, b, alpha: 0.05, looks: 10 });

/** `a` against `b` on sim:slm-3b over `limit` items. */
const comparison = (a: string, b: string, limit: number) =>
  benchRequest({ models: ["sim:slm-3b"], configs: [a, b], limit, untilSignificant: sequential(a, b) });

describe("--until-significant", () => {
  it("stops early on a pair with a large difference, and a resume runs nothing more", async () => {
    const request = comparison("onsetlab", "onsetlab-plus", 200);
    const outcome = await runBench({ request, resultsRoot: root });
    const result = outcome.summary.sequential!;
    expect(result.decision).toBe("differ");
    expect(result.stoppedEarly).toBe(true);
    const records = strictRecordLines(outcome.dir);
    expect(records.length).toBeLessThan(outcome.manifest.tasks);
    // whole items: both configurations of every item that ran, and the looks counted them
    expect(records.length).toBe(2 * result.looks.at(-1)!.items);
    const manifest = readManifest(outcome.dir);
    expect(manifest.finishedAt).toBeDefined();
    expect(manifest.sequential?.decision).toBe("differ");

    const resumed = await runBench({ request, resume: outcome.runId, resultsRoot: root });
    expect(resumed.summary.records).toBe(records.length);
    expect(resumed.summary.sequential?.looks).toEqual(result.looks);
  });

  it("runs to the end on a configuration and its identical twin", async () => {
    const outcome = await runBench({
      request: comparison("onsetlab", "onsetlab-twin", 60),
      modelsFile: twinModelsFile(),
      resultsRoot: root,
    });
    const result = outcome.summary.sequential!;
    expect(result.decision).toBe("no_difference_found");
    expect(result.stoppedEarly).toBeUndefined();
    expect(result.looks).toHaveLength(10);
    expect(outcome.summary.records).toBe(outcome.manifest.tasks);
    expect(result.looks.every((look) => look.z === 0)).toBe(true);
  });

  it("a resume that runs again the items the server failed observes each item once", async () => {
    const request = comparison("onsetlab", "onsetlab-twin", 20);
    const modelsFile = twinModelsFile();
    const outcome = await runBench({ request, modelsFile, resultsRoot: root });
    const finalLook = outcome.summary.sequential!.looks.at(-1)!;
    expect(finalLook.items).toBe(20);
    // three records as a model server that failed them would have left them (the simulator never fails)
    const lines = readRunLines(outcome.dir, "records");
    const failed = [1, 8, 9];
    writeRunLines(
      outcome.dir,
      "records",
      lines.map((line, index) =>
        failed.includes(index) ? line.replace('"score":{', '"score":{"invalid":"server_error",') : line,
      ),
    );
    const resumed = await runBench({ request, modelsFile, resume: outcome.runId, resultsRoot: root });
    expect(resumed.retried).toBe(3);
    const records = strictRecordLines(outcome.dir);
    expect(new Set(records.map((record) => record.key)).size).toBe(outcome.manifest.tasks);
    expect(records.filter((record) => record.score.invalid !== undefined)).toEqual([]);
    // counted twice, an item would push the count past the planned items and the pairs past theirs
    const result = resumed.summary.sequential!;
    expect(result.decision).toBe("no_difference_found");
    expect(result.looks).toHaveLength(10);
    expect(result.looks.at(-1)).toEqual(finalLook);
  });

  it("refuses a pair that is not two configurations of one model's run", async () => {
    const run = (changes: Parameters<typeof benchRequest>[0]) =>
      runBench({ request: benchRequest({ limit: 10, ...changes }), resultsRoot: root });
    await expect(run({ configs: ["onsetlab"], untilSignificant: sequential("onsetlab", "react") })).rejects.toThrow(
      /"react" is not a configuration of this run/,
    );
    await expect(
      run({
        models: ["sim:slm-3b", "sim:oracle"],
        configs: ["onsetlab", "react"],
        untilSignificant: sequential("onsetlab", "react"),
      }),
    ).rejects.toThrow(InputError);
    await expect(
      run({ configs: ["onsetlab", "react"], repeats: 2, untilSignificant: sequential("onsetlab", "react") }),
    ).rejects.toThrow(/--repeats 1/);
  });
});
