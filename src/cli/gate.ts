/**
 * `gate --baseline FILE [--run RUN_ID…] [--update]`: fails (exit 1) when a run regressed against the
 * baseline; exit 2 when the baseline or the run cannot be compared (missing, another dataset or matrix).
 */

import type { Command } from "commander";
import { resultsRoot } from "../bench/run/store.ts";
import { buildBaseline, policyFor, readBaseline, writeBaseline } from "../report/baseline.ts";
import { GateFailedError, RunSetError } from "../report/errors.ts";
import { checkSameMatrix, runGate, verdictTally } from "../report/gate.ts";
import { renderGate } from "../report/gate-text.ts";
import { loadOutcomes, mergeOutcomes } from "../report/outcomes.ts";
import { isComplete } from "../report/run-set.ts";
import { loadRunSet } from "../report/runs.ts";

interface GateFlags {
  baseline: string;
  run?: string[];
  update?: boolean;
  json?: boolean;
}

export function registerGateCommand(program: Command): void {
  program
    .command("gate")
    .description("compare a run with a baseline: exit 1 when a metric regressed, 0 when all hold")
    .requiredOption("--baseline <file>", "the baseline, e.g. reports/baselines/sim-slm-3b-default.json")
    .option("--run <ids...>", "the run(s) to gate (default: the newest run)")
    .option("--update", "write the baseline from the run(s) instead of gating (keeps the baseline's policy)")
    .option("--json", "print the checks as JSON")
    .action((flags: GateFlags) => {
      const set = loadRunSet(flags.run ?? [], resultsRoot());
      for (const run of set.runs) {
        if (!isComplete(run)) {
          throw new RunSetError(
            "RUN_INCOMPLETE",
            `run ${run.id} is incomplete (${run.summary.records} of ${run.manifest.tasks} tasks): finish it with \`pnpm bench --resume ${run.id}\``,
          );
        }
      }
      const outcomes = mergeOutcomes(set.runs.map(loadOutcomes));
      const ids = set.runs.map((run) => run.id).join(" ");
      if (flags.update) {
        const baseline = buildBaseline(set, outcomes, policyFor(flags.baseline), flags.baseline);
        writeBaseline(flags.baseline, baseline);
        process.stderr.write(
          `gate: baseline ${flags.baseline} written from ${ids} (${outcomes.entries.length} model × configurations, ${outcomes.keys.length} items)\n`,
        );
        return;
      }
      const baseline = readBaseline(flags.baseline);
      checkSameMatrix(baseline, set, outcomes, flags.baseline);
      const result = runGate(baseline, set, outcomes);
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ ok: result.failures.length === 0, checks: result.checks.length, failures: result.failures, notes: result.notes })}\n`,
        );
      } else {
        process.stdout.write(
          renderGate(result, `gate: run ${ids} against ${flags.baseline} (made from ${baseline.runIds.join(" ")})`),
        );
      }
      if (result.failures.length > 0) {
        const onlyBetter = result.failures.every((check) => check.verdict === "improved");
        throw new GateFailedError(
          "GATE_FAILED",
          `gate failed: ${result.failures.length} of ${result.checks.length} checks against ${flags.baseline} ` +
            `(${verdictTally(result.failures)})` +
            (onlyBetter
              ? "; a deterministic run must reproduce its baseline: --update it if the change is intended"
              : ""),
        );
      }
    });
}
