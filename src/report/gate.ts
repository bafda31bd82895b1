/**
 * The regression gate: every metric of every model × configuration of a run against the baseline.
 * Deterministic models (simulated, replayed) must reproduce the baseline's outcomes item for item; a
 * live model's metric fails when it dropped by more than the tolerance AND the paired test says the
 * drop is real, or when it is beyond the baseline's absolute floor (ceiling).
 */
import type { AgentDefinition } from "../agent/definition.ts";
import { canonicalJson } from "../json.ts";
import { differingKeys } from "./ablation.ts";
import type { Baseline } from "./baseline.ts";
import { BaselineError } from "./errors.ts";
import { BINARY_METRICS, type MetricName, metricInfo, POOLED_METRICS } from "./metrics.ts";
import { decodeBinary, decodePooled, type OutcomeEntry, type Outcomes } from "./outcomes.ts";
import { align, type PairedChange, pairedBinary, pairedPooled } from "./paired.ts";
import { isDeterministic } from "./provenance.ts";
import type { RunSet } from "./run-set.ts";

/**
 * Which way a failing check moved: `improved` only in a deterministic run (its outcomes must reproduce
 * the baseline, so a better item fails too, until the baseline is updated on purpose); `changed` when
 * items only moved in or out of the metric's scope.
 */
export type GateVerdict = "holds" | "regressed" | "improved" | "changed";

export interface GateCheck {
  model: string;
  config: string;
  metric: MetricName;
  mode: "exact" | "paired";
  ok: boolean;
  verdict: GateVerdict;
  /** Why it failed (empty when ok). */
  reasons: string[];
  change: PairedChange;
}

export interface GateResult {
  checks: GateCheck[];
  failures: GateCheck[];
  /** What differs besides the numbers (a configuration resolved differently …). */
  notes: string[];
}

/** Throws BaselineError unless the runs are the baseline's matrix on the baseline's dataset. */
export function checkSameMatrix(baseline: Baseline, set: RunSet, outcomes: Outcomes, file: string): void {
  const runs = set.runs.map((run) => run.id).join(", ");
  const manifest = set.runs[0]!.manifest;
  if (baseline.dataset.hash !== set.datasetHash) {
    throw new BaselineError(
      "BASELINE_OTHER_DATASET",
      `${file} was made on dataset hash ${baseline.dataset.hash} (${baseline.dataset.items} items); run ${runs} ` +
        `used ${set.datasetHash} (${manifest.dataset.items} items). Run the baseline's dataset, or --update the baseline on purpose`,
    );
  }
  // a baseline made before seeds were recorded has none to compare
  if (baseline.seed !== undefined) {
    const seeds = [...new Set(set.runs.map((run) => run.manifest.request.seed))];
    if (seeds.length !== 1 || seeds[0] !== baseline.seed) {
      throw new BaselineError(
        "BASELINE_OTHER_SEED",
        `${file} was made with --seed ${baseline.seed}; run ${runs} used --seed ${seeds.join(", ")}: ` +
          "the same items would draw other outcomes. Run with the baseline's seed, or --update the baseline on purpose",
      );
    }
  }
  const differ = (what: string, before: readonly string[], after: readonly string[]) => {
    if ([...before].sort().join("\n") === [...after].sort().join("\n")) return;
    throw new BaselineError(
      "BASELINE_OTHER_MATRIX",
      `${file} is for another matrix: ${what} ${before.join(", ")} in the baseline, ${after.join(", ")} in run ${runs}`,
    );
  };
  differ(
    "models",
    baseline.models.map((model) => model.model),
    set.models,
  );
  differ("configurations", baseline.configs, set.configs);
  differ("repeats", [String(baseline.repeats)], [String(manifest.request.repeats)]);
  differ(
    "deterministic models",
    baseline.models.filter((model) => model.deterministic).map((model) => model.model),
    set.sources.filter(isDeterministic).map((source) => source.model),
  );
  differ("items × repeats", [baseline.outcomes.keys.join(",")], [outcomes.keys.join(",")]);
  checkSameDefinitions(baseline, set, file);
}

/**
 * An agent definition is part of what was measured: a changed prompt (another hash) is a different
 * configuration, so its outcomes are not compared with the baseline's, whatever they are.
 */
function checkSameDefinitions(baseline: Baseline, set: RunSet, file: string): void {
  for (const run of set.runs) {
    for (const [model, configs] of Object.entries(run.manifest.resolved)) {
      for (const [config, now] of Object.entries(configs)) {
        const before = baseline.resolved[model]?.[config];
        if (!before) continue;
        const then = before.definition;
        const hash = (definition: AgentDefinition | undefined) => definition?.hash ?? "none (built-in prompt)";
        if (hash(then) === hash(now.definition)) continue;
        throw new BaselineError(
          "BASELINE_OTHER_DEFINITION",
          `${file}: ${model} × ${config} ran agent definition ${hash(then)} in the baseline, ` +
            `${hash(now.definition)}${now.definition ? ` (${now.definition.file})` : ""} in run ${run.id}: ` +
            "a changed prompt is another measurement. Run the baseline's definition, or --update the baseline on purpose",
        );
      }
    }
  }
}

export function runGate(baseline: Baseline, set: RunSet, outcomes: Outcomes): GateResult {
  const deterministic = new Set(set.sources.filter(isDeterministic).map((source) => source.model));
  const checks: GateCheck[] = [];
  for (const before of baseline.outcomes.entries) {
    const after = outcomes.entries.find((entry) => entry.model === before.model && entry.config === before.config);
    if (!after) continue; // the matrix check guarantees one; a model × config with no rows has nothing to gate
    const mode = deterministic.has(before.model) ? "exact" : "paired";
    for (const metric of BINARY_METRICS) {
      const [b, a] = [decodeBinary(before.binary[metric.name]), decodeBinary(after.binary[metric.name])];
      const change = pairedBinary(align(baseline.outcomes.keys, b, outcomes.keys, a), { before: b, after: a });
      checks.push(judge(baseline, before, metric.name, mode, change));
    }
    for (const metric of POOLED_METRICS) {
      const [b, a] = [decodePooled(before.pooled[metric.name]), decodePooled(after.pooled[metric.name])];
      const change = pairedPooled(align(baseline.outcomes.keys, b, outcomes.keys, a), { before: b, after: a });
      checks.push(judge(baseline, before, metric.name, mode, change));
    }
  }
  return { checks, failures: checks.filter((check) => !check.ok), notes: configNotes(baseline, set) };
}

function judge(
  baseline: Baseline,
  entry: OutcomeEntry,
  metric: MetricName,
  mode: GateCheck["mode"],
  change: PairedChange,
): GateCheck {
  const reasons: string[] = [];
  const { better } = metricInfo(metric);
  const [improved, worsened] = better === "higher" ? [change.up, change.down] : [change.down, change.up];
  let dropped = false;
  if (mode === "exact") {
    if (change.changedKeys.length > 0) {
      reasons.push(
        `${change.changedKeys.length} item outcomes changed in a deterministic run ` +
          `(${improved} better, ${worsened} worse: ${shortList(change.changedKeys)})`,
      );
    }
  } else {
    const { tolerance, alpha } = baseline.policy;
    const before = change.before.value;
    const after = change.after.value;
    if (before !== null && after !== null) {
      const worse = better === "higher" ? before - after : after - before;
      if (worse > tolerance && change.pValue < alpha) {
        dropped = true;
        reasons.push(
          `${better === "higher" ? "dropped" : "rose"} by ${(worse * 100).toFixed(1)} points (> tolerance ` +
            `${(tolerance * 100).toFixed(1)}), significant (p = ${change.pValue.toPrecision(2)} < ${alpha})`,
        );
      }
    }
  }
  const after = change.after.value;
  const floor = baseline.policy.floors[metric];
  const ceiling = baseline.policy.ceilings[metric];
  const beyondLimit =
    (after !== null && floor !== undefined && after < floor) ||
    (after !== null && ceiling !== undefined && after > ceiling);
  if (after !== null && floor !== undefined && after < floor) reasons.push(`below the floor ${floor}`);
  if (after !== null && ceiling !== undefined && after > ceiling) reasons.push(`above the ceiling ${ceiling}`);
  const verdict: GateVerdict =
    reasons.length === 0
      ? "holds"
      : dropped || beyondLimit || worsened > 0
        ? "regressed"
        : improved > 0
          ? "improved"
          : "changed";
  return { model: entry.model, config: entry.config, metric, mode, ok: reasons.length === 0, verdict, reasons, change };
}

/** `3 regressed, 1 improved`: the failing checks by the way they moved. */
export function verdictTally(failures: readonly GateCheck[]): string {
  const count = (verdict: GateVerdict) => failures.filter((check) => check.verdict === verdict).length;
  const parts = [`${count("regressed")} regressed`, `${count("improved")} improved`];
  if (count("changed") > 0) parts.push(`${count("changed")} changed scope only`);
  return parts.join(", ");
}

function shortList(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).join(", ");
  return keys.length > 5 ? `${shown}, …` : shown;
}

/**
 * Configurations that resolve differently now than when the baseline was made, one note per change
 * (`limits.observationChars 600 → 800`) naming every model × configuration it touches.
 */
function configNotes(baseline: Baseline, set: RunSet): string[] {
  const touched = new Map<string, string[]>();
  for (const run of set.runs) {
    for (const [model, configs] of Object.entries(run.manifest.resolved)) {
      for (const [config, now] of Object.entries(configs)) {
        const then = baseline.resolved[model]?.[config];
        if (!then) continue;
        const changes = differingKeys(then, now).flatMap((key) => changedPaths(key, then[key], now[key]));
        if (changes.length === 0) continue;
        const text = changes.join(", ");
        touched.set(text, [...(touched.get(text) ?? []), `${model} × ${config}`]);
      }
    }
  }
  return [...touched].map(
    ([text, where]) =>
      `${where.join(", ")} resolve${where.length === 1 ? "s" : ""} differently from the baseline: ${text}`,
  );
}

/** `key a → b`, or one entry per changed field of a nested object (`limits.observationChars 600 → 800`). */
function changedPaths(path: string, then: unknown, now: unknown): string[] {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === "object" && !Array.isArray(value);
  if (isObject(then) && isObject(now)) {
    const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])];
    return keys
      .filter((key) => canonicalJson(then[key]) !== canonicalJson(now[key]))
      .flatMap((key) => changedPaths(`${path}.${key}`, then[key], now[key]));
  }
  return [`${path} ${JSON.stringify(then)} → ${JSON.stringify(now)}`];
}
