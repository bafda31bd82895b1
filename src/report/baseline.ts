/**
 * The gate's baseline file (reports/baselines/NAME.json): what was run (dataset hash, models,
 * configurations, repeats), the per-item outcomes of every model × configuration — so a later run can
 * be compared item by item with a paired test — and the policy: tolerance, significance level, and
 * absolute floors (ceilings for lower-is-better metrics). `--update` rewrites everything but the policy.
 */

import { existsSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import type { ResolvedConfig } from "../bench/run/run-file-types.ts";
import { writeJsonAtomic } from "../bench/run/store.ts";
import { inProcessSimulator } from "../models/provenance.ts";
import { BaselineError } from "./errors.ts";
import { BINARY_METRICS, type MetricName, POOLED_METRICS } from "./metrics.ts";
import { checkAligned, OUTCOMES_SCHEMA, type Outcomes } from "./outcomes.ts";
import { isDeterministic } from "./provenance.ts";
import type { RunSet } from "./run-set.ts";

export const BASELINE_FORMAT = "onsetlab-baseline/1";

export interface GatePolicy {
  /** A real model's drop must exceed this (a fraction: 0.02 = 2 points) AND be significant to fail. */
  tolerance: number;
  /** Significance level of the paired test. */
  alpha: number;
  /** Absolute minimum of a higher-is-better metric, for every model × configuration. */
  floors: Partial<Record<MetricName, number>>;
  /** Absolute maximum of a lower-is-better metric (hallucination, wrong injections). */
  ceilings: Partial<Record<MetricName, number>>;
}

export const DEFAULT_POLICY: GatePolicy = { tolerance: 0.02, alpha: 0.05, floors: {}, ceilings: {} };

export interface BaselineModel {
  model: string;
  /** The simulator's answers (in process or replayed from its cassette): its provenance says so. */
  simulated: boolean;
  /** Simulated or replayed: the gate wants its outcomes unchanged, item for item. */
  deterministic: boolean;
}

export interface Baseline {
  format: typeof BASELINE_FORMAT;
  about: string;
  runIds: string[];
  dataset: { hash: string; items: number };
  /** The runs' --seed; absent in a baseline made before it was recorded. */
  seed?: number;
  repeats: number;
  models: BaselineModel[];
  configs: string[];
  /** The resolved agent configuration of each model × configuration, to say what changed since. */
  resolved: Record<string, Record<string, ResolvedConfig>>;
  policy: GatePolicy;
  outcomes: Outcomes;
}

export function buildBaseline(set: RunSet, outcomes: Outcomes, policy: GatePolicy, file: string): Baseline {
  const first = set.runs[0]!.manifest;
  const runs = set.runs.map((run) => run.ref).join(" ");
  return {
    format: BASELINE_FORMAT,
    about:
      `The gate's baseline, made by \`pnpm gate --baseline ${file} --run ${runs} --update\`. ` +
      "Edit only `policy`; everything else comes from the runs.",
    runIds: set.runs.map((run) => run.id),
    dataset: { hash: set.datasetHash, items: first.dataset.items },
    seed: first.request.seed,
    repeats: first.request.repeats,
    models: set.sources.map((source) => ({
      model: source.model,
      simulated: inProcessSimulator(source.provenance),
      deterministic: isDeterministic(source),
    })),
    configs: set.configs,
    resolved: Object.fromEntries(set.runs.flatMap((run) => Object.entries(run.manifest.resolved))),
    policy,
    outcomes,
  };
}

const higher = [...BINARY_METRICS, ...POOLED_METRICS].filter((m) => m.better === "higher").map((m) => m.name);
const lower = [...BINARY_METRICS, ...POOLED_METRICS].filter((m) => m.better === "lower").map((m) => m.name);

const POLICY_SCHEMA = {
  type: "object",
  required: ["tolerance", "alpha", "floors", "ceilings"],
  additionalProperties: false,
  properties: {
    tolerance: { type: "number", minimum: 0, maximum: 1 },
    alpha: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    floors: {
      type: "object",
      propertyNames: { enum: higher },
      additionalProperties: { type: "number", minimum: 0, maximum: 1 },
    },
    ceilings: {
      type: "object",
      propertyNames: { enum: lower },
      additionalProperties: { type: "number", minimum: 0, maximum: 1 },
    },
  },
};

const validatePolicy = new Ajv({ allErrors: true }).compile(POLICY_SCHEMA);

const validateBaseline = new Ajv({ allErrors: true }).compile({
  type: "object",
  required: ["format", "runIds", "dataset", "repeats", "models", "configs", "resolved", "policy", "outcomes"],
  properties: {
    format: { const: BASELINE_FORMAT },
    runIds: { type: "array", items: { type: "string" } },
    dataset: {
      type: "object",
      required: ["hash", "items"],
      properties: { hash: { type: "string" }, items: { type: "integer" } },
    },
    seed: { type: "integer" },
    repeats: { type: "integer", minimum: 1 },
    models: {
      type: "array",
      items: {
        type: "object",
        required: ["model", "simulated", "deterministic"],
        properties: { model: { type: "string" }, simulated: { type: "boolean" }, deterministic: { type: "boolean" } },
      },
    },
    configs: { type: "array", items: { type: "string" } },
    resolved: { type: "object" },
    policy: POLICY_SCHEMA,
    outcomes: OUTCOMES_SCHEMA,
  },
});

/** A baseline file's JSON, unchecked; a file that is not JSON is bad input naming it. */
function parseBaselineJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new BaselineError("BASELINE_INVALID", `${file}: not valid JSON (${(cause as Error).message})`, { cause });
  }
}

/** Reads and checks a baseline; a missing or malformed file is bad input naming the file and key. */
export function readBaseline(file: string): Baseline {
  if (!existsSync(file)) {
    throw new BaselineError(
      "BASELINE_MISSING",
      `--baseline ${file}: no such file; create it from a run with \`pnpm gate --baseline ${file} --run RUN_ID --update\``,
    );
  }
  const parsed = parseBaselineJson(file);
  if (!validateBaseline(parsed)) {
    const errors = (validateBaseline.errors ?? []).map((error) => {
      const allowed =
        error.keyword === "enum" ? ` (one of ${(error.params.allowedValues as string[]).join(", ")})` : "";
      return `${error.instancePath || "/"} ${error.message}${allowed}`;
    });
    throw new BaselineError("BASELINE_INVALID", `${file}: ${errors.slice(0, 3).join("; ")}`);
  }
  const baseline = parsed as Baseline;
  checkAligned(baseline.outcomes, file);
  return baseline;
}

/**
 * The policy of an existing baseline (kept by --update), or the defaults when there is none yet. Only the
 * policy is read: --update rewrites the rest, so a baseline of an older format (a metric added since) can
 * be brought up to date.
 */
export function policyFor(file: string): GatePolicy {
  if (!existsSync(file)) return DEFAULT_POLICY;
  const parsed = parseBaselineJson(file) as { policy?: unknown } | null;
  if (!validatePolicy(parsed?.policy)) {
    const [error] = validatePolicy.errors ?? [];
    throw new BaselineError(
      "BASELINE_INVALID",
      `${file}: /policy${error?.instancePath ?? ""} ${error?.message ?? "is missing"}`,
    );
  }
  return parsed?.policy as unknown as GatePolicy;
}

export function writeBaseline(file: string, baseline: Baseline): void {
  writeJsonAtomic(file, baseline);
}
