/**
 * Runs simulator profiles over the whole dataset through the pipeline's ReWOO planner — a real bench run
 * (models.yaml's `onsetlab-plus-rewoo` configuration: filter, skills and planner prompt as the agent builds
 * them) into a scratch results folder — and tallies every planner request of every profile. This project's
 * multi-step planner, because OnsetLab's one-call planner cuts a plan at its second step: the calls the
 * simulator wrote after it would never reach the classifier.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockServerSpecs } from "../../mock-servers/index.ts";
import { selectItems } from "../../src/bench/dataset/select.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { itemCount } from "../../src/bench/run/resolve-request.ts";
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import { forEachJsonl, runFile } from "../../src/bench/run/store.ts";
import { ToolCatalog } from "../../src/bench/scoring/index.ts";
import { OnsetlabError } from "../../src/errors.ts";
import type { ToolDefinition } from "../../src/tool-protocol/types.ts";
import { PlannerTally, type ProfileTally } from "./tally.ts";

/** The bench could not run some of the calibration's tasks (a harness failure, not a model mistake). */
export class CalibrationRunError extends OnsetlabError {}

export const CALIBRATION_CONFIG = "onsetlab-plus-rewoo";
export const CALIBRATION_SEED = 1;
/** The published table's profiles: the oracle as the control, then the three that make mistakes. */
export const CALIBRATION_PROFILES = ["oracle", "slm-3b", "slm-7b", "chaos"] as const;

export interface CalibrationRun {
  config: string;
  seed: number;
  dataset: { hash: string; items: number };
  profiles: ProfileTally[];
}

/** `profiles` without the `sim:` prefix, e.g. ["oracle", "slm-3b"]. */
export async function calibrateProfiles(profiles: readonly string[]): Promise<CalibrationRun> {
  const root = mkdtempSync(join(tmpdir(), "sim-calibration-"));
  try {
    const models = profiles.map((profile) => `sim:${profile}`);
    const outcome = await runBench({
      request: {
        models,
        configs: [CALIBRATION_CONFIG],
        dataset: [],
        filter: {},
        seed: CALIBRATION_SEED,
        repeats: 1,
        transport: "memory",
      },
      resultsRoot: root,
    });
    if (outcome.failures.length > 0) {
      const first = outcome.failures[0]!;
      throw new CalibrationRunError(
        "CALIBRATION_RUN_FAILED",
        `calibration run: the harness could not run ${outcome.failures.length} tasks (first ${first.task.key}: ${first.message})`,
        { context: { runId: outcome.runId, failures: outcome.failures.length } },
      );
    }
    const { items } = selectItems(
      outcome.manifest.request.dataset,
      outcome.manifest.request.filter,
      itemCount(outcome.manifest.request),
    );
    const catalog = new ToolCatalog(mockToolDefinitions());
    const tallies = new Map(
      models.map((model, index) => [
        model,
        new PlannerTally({ profile: profiles[index]!, seed: CALIBRATION_SEED, items, catalog }),
      ]),
    );
    forEachJsonl<RunRecord>(runFile(outcome.dir, "records"), (record) => tallies.get(record.model)!.add(record));
    return {
      config: CALIBRATION_CONFIG,
      seed: CALIBRATION_SEED,
      dataset: { hash: outcome.manifest.dataset.hash, items: outcome.manifest.dataset.items },
      profiles: models.map((model) => tallies.get(model)!.finish()),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Every mock server's tools, as the scorer's catalog reads them (required parameters, write hints). */
function mockToolDefinitions(): ToolDefinition[] {
  return Object.values(mockServerSpecs).flatMap((spec) =>
    spec.tools.map((tool) => ({
      server: spec.name,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    })),
  );
}
