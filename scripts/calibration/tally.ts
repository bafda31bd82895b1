/**
 * Tallies one simulator profile's ReWOO planner requests from a bench run's records: per error type the
 * EXPECTED count (the sum of the simulator's effective rates, SimEngine.analyse on the very prompt the
 * run sent), the count the simulator DREW, and the count the scorer's classifier MEASURED in the output
 * (ItemScore.planner, written by the bench) — over every unit and over the observable units
 * (observable.ts). Units: planner outputs for request-level types; gold calls written for call-level
 * ones (a call-level count is the number of steps the classifier flags with the type).
 */

import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import type { ToolCatalog } from "../../src/bench/scoring/index.ts";
import type { PlannerClassification, PlannerErrorType } from "../../src/bench/scoring/planner-output.ts";
import { OnsetlabError } from "../../src/errors.ts";
import {
  CALL_ERROR_TYPES,
  type CallErrorType,
  REQUEST_ERROR_TYPES,
  type RequestErrorType,
  SimEngine,
} from "../../src/models/sim/index.ts";
import { callsObservable, type PlannerRequestView, requestObservable } from "./observable.ts";

/** The simulator's twelve types, plus the classifier's `type_error`, which nothing injects (a control). */
export type CalibratedType = RequestErrorType | CallErrorType | "type_error";

export interface Tally {
  /** Units: planner outputs (request level) or gold calls written (call level). */
  n: number;
  /** Sum of the effective rates over the units: n × the expected rate. */
  expected: number;
  drawn: number;
  measured: number;
}

/** A planner request whose observable units the classifier and the simulator count differently. */
export interface Disagreement {
  itemId: string;
  drawn: number;
  measured: number;
}

export interface TypeTally {
  type: CalibratedType;
  level: "request" | "call";
  /** The profile's configured base rate (0 for type_error). */
  baseRate: number;
  all: Tally;
  observable: Tally;
  /** Observable requests where measured ≠ drawn, in dataset order: the evidence behind a gap. */
  disagreements: Disagreement[];
}

export interface ProfileTally {
  profile: string;
  /** Planner requests tallied (one per dataset item). */
  requests: number;
  types: TypeTally[];
}

/** A record that cannot be tallied (no planner request, a prompt the simulator reads as another item). */
export class CalibrationRecordError extends OnsetlabError {}

export interface TallyOptions {
  profile: string;
  /** The seed the run gave the simulator (run.json request.seed + repeat). */
  seed: number;
  items: readonly DatasetItem[];
  catalog: ToolCatalog;
}

/** What one planner request contributes to one type. */
interface Contribution {
  type: CalibratedType;
  /** Units: 1 (request level) or the gold calls written (call level). */
  n: number;
  expected: number;
  drawn: number;
  measured: number;
  observable: boolean;
}

/**
 * Add the run's records one by one (streamed: a run's traces do not fit in memory twice); `finish`
 * sums in dataset order, so the totals do not depend on the order concurrent tasks finished in.
 */
export class PlannerTally {
  private readonly engine: SimEngine;
  private readonly byId: ReadonlyMap<string, DatasetItem>;
  private readonly contributions = new Map<string, Contribution[]>();

  constructor(private readonly options: TallyOptions) {
    this.engine = new SimEngine({ profile: options.profile, seed: options.seed, gold: options.items });
    this.byId = new Map(options.items.map((item) => [item.id, item]));
  }

  add(record: RunRecord): void {
    const item = this.byId.get(record.itemId);
    const planner = record.result.modelCalls.filter((call) => call.stage === "planner");
    const prompt = planner[0]?.prompt;
    const classification = record.score.planner;
    if (!item || planner.length !== 1 || prompt === undefined || !classification) {
      throw new CalibrationRecordError(
        "CALIBRATION_RECORD",
        `${record.key}: expected one planner request with its prompt and a classified plan (strategy rewoo), got ${planner.length} request(s)`,
        { context: { key: record.key } },
      );
    }
    const analysis = this.engine.analyse({ kind: "complete", stage: "planner", prompt });
    const shown = record.result.tools.filtered;
    if (analysis.itemId !== item.id || analysis.features.toolsShown !== shown.length) {
      throw new CalibrationRecordError(
        "CALIBRATION_RECORD",
        `${record.key}: the simulator reads the planner prompt as item ${analysis.itemId ?? "(none)"} with ` +
          `${analysis.features.toolsShown} tools; the run had item ${item.id} with ${shown.length}`,
        { context: { key: record.key } },
      );
    }
    if (this.contributions.has(item.id)) {
      throw new CalibrationRecordError("CALIBRATION_RECORD", `${record.key}: item ${item.id} has a second record`, {
        context: { key: record.key },
      });
    }
    const { catalog } = this.options;
    const view: PlannerRequestView = { item, shown, requestDraw: analysis.decision.request };
    const written = analysis.decision.calls;
    this.contributions.set(item.id, [
      ...REQUEST_ERROR_TYPES.map((type) => ({
        type,
        n: 1,
        expected: analysis.rates.request[type],
        drawn: analysis.decision.request === type ? 1 : 0,
        measured: classification.errors.includes(type) ? 1 : 0,
        observable: requestObservable(type, view, catalog),
      })),
      ...CALL_ERROR_TYPES.map((type) => ({
        type,
        n: written.length,
        expected: written.reduce((sum, _, k) => sum + analysis.rates.calls[k]![type], 0),
        drawn: written.filter((drawn) => drawn === type).length,
        measured: flaggedSteps(classification, type),
        observable: callsObservable(type, view, catalog),
      })),
      {
        type: "type_error",
        n: written.length,
        expected: 0,
        drawn: 0,
        measured: flaggedSteps(classification, "type_error"),
        observable: item.calls.length > 0,
      },
    ]);
  }

  finish(): ProfileTally {
    const rates = this.engine.profile.rates;
    const types = [
      ...CALL_ERROR_TYPES.map((type) => emptyTally(type, "call", rates[type])),
      ...REQUEST_ERROR_TYPES.map((type) => emptyTally(type, "request", rates[type])),
      emptyTally("type_error", "call", 0),
    ];
    const tallyOf = new Map(types.map((tally) => [tally.type, tally]));
    let requests = 0;
    for (const item of this.options.items) {
      const contributions = this.contributions.get(item.id);
      if (!contributions) continue;
      requests += 1;
      for (const contribution of contributions) add(tallyOf.get(contribution.type)!, item.id, contribution);
    }
    return { profile: this.engine.profile.name, requests, types };
  }
}

function emptyTally(type: CalibratedType, level: "request" | "call", baseRate: number): TypeTally {
  const zero = (): Tally => ({ n: 0, expected: 0, drawn: 0, measured: 0 });
  return { type, level, baseRate, all: zero(), observable: zero(), disagreements: [] };
}

function add(tally: TypeTally, itemId: string, unit: Contribution): void {
  if (unit.observable && unit.drawn !== unit.measured) {
    tally.disagreements.push({ itemId, drawn: unit.drawn, measured: unit.measured });
  }
  for (const target of unit.observable ? [tally.all, tally.observable] : [tally.all]) {
    target.n += unit.n;
    target.expected += unit.expected;
    target.drawn += unit.drawn;
    target.measured += unit.measured;
  }
}

function flaggedSteps(classification: PlannerClassification, type: PlannerErrorType): number {
  return classification.steps.filter((step) => step.errors.includes(type)).length;
}
