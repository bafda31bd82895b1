/**
 * `--until-significant A,B`: a paired comparison of two configurations that stops the run as soon as the
 * answer is known. Items run in a seeded random order; at each planned look (every N/looks items with
 * both outcomes) McNemar's statistic Z = (onlyB − onlyA)/√(onlyA + onlyB) is held against a
 * group-sequential boundary (stats/group-sequential.ts), so the whole procedure keeps the error rate of
 * one fixed-size test. With a margin, the run also stops once the repeated confidence interval of the
 * difference at that look's boundary (Jennison & Turnbull 1989, JRSS B 51:305) lies inside ±margin.
 */

import { groupSequentialBoundaries } from "../stats/group-sequential.ts";
import { countPair, type PairedCounts, type PairedDifference, pairedDifferenceCI } from "../stats/mcnemar.ts";

export interface SequentialRequest {
  a: string;
  b: string;
  alpha: number;
  /** Stop when the difference is known to be smaller than this (a rate, e.g. 0.05); none: only stop to differ. */
  margin?: number;
  looks: number;
}

export interface SequentialLook {
  look: number;
  /** Items with both outcomes at this look (invalid ones included: they are not paired). */
  items: number;
  counts: PairedCounts;
  z: number;
  boundary: number;
  /** B − A with its repeated confidence interval at this look's boundary. */
  difference: PairedDifference;
}

export type SequentialDecision = "differ" | "within_margin" | "no_difference_found";

export interface SequentialOutcome {
  request: SequentialRequest;
  /** Items the comparison may take: the run's planned items. */
  plannedItems: number;
  looks: SequentialLook[];
  /** Set when the run ended: why, at which look. */
  decision?: SequentialDecision;
  /** The decision came before the last look: the rest of the items were not run. */
  stoppedEarly?: boolean;
}

/** The outcome of configuration A or B on one item: pass, fail, or null when it could not be measured. */
type Outcome = boolean | null;

export interface ObservedTask {
  config: string;
  itemId: string;
  taskSuccess: boolean;
  invalid: boolean;
}

export class SequentialMonitor {
  readonly outcome: SequentialOutcome;
  private readonly boundaries: number[];
  private readonly schedule: number[];
  private readonly pending = new Map<string, { a?: Outcome; b?: Outcome }>();
  private readonly counts: PairedCounts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  private complete = 0;

  constructor(request: SequentialRequest, plannedItems: number) {
    const looks = Math.max(1, Math.min(request.looks, plannedItems));
    this.schedule = Array.from({ length: looks }, (_, index) => Math.ceil(((index + 1) * plannedItems) / looks));
    this.boundaries = groupSequentialBoundaries(
      this.schedule.map((items) => items / plannedItems),
      request.alpha,
    );
    this.outcome = { request, plannedItems, looks: [] };
  }

  /** Adds a finished task; true once the comparison is decided (the run may stop). */
  observe(task: ObservedTask): boolean {
    const side =
      task.config === this.outcome.request.a ? "a" : task.config === this.outcome.request.b ? "b" : undefined;
    if (!side || this.outcome.decision) return this.outcome.decision !== undefined;
    const entry = this.pending.get(task.itemId) ?? {};
    entry[side] = task.invalid ? null : task.taskSuccess;
    if (entry.a === undefined || entry.b === undefined) {
      this.pending.set(task.itemId, entry);
      return false;
    }
    this.pending.delete(task.itemId);
    this.complete += 1;
    countPair(this.counts, entry.a, entry.b);
    const index = this.outcome.looks.length;
    if (index < this.schedule.length && this.complete >= this.schedule[index]!) this.look(index);
    return this.outcome.decision !== undefined;
  }

  private look(index: number): void {
    const { onlyA, onlyB } = this.counts;
    const boundary = this.boundaries[index]!;
    const discordant = onlyA + onlyB;
    const z = discordant === 0 ? 0 : (onlyB - onlyA) / Math.sqrt(discordant);
    const difference = pairedDifferenceCI(this.counts, boundary);
    this.outcome.looks.push({
      look: index + 1,
      items: this.complete,
      counts: { ...this.counts },
      z,
      boundary,
      difference,
    });
    const last = index === this.schedule.length - 1;
    const margin = this.outcome.request.margin;
    if (Math.abs(z) >= boundary) this.outcome.decision = "differ";
    else if (margin !== undefined && difference.lo > -margin && difference.hi < margin) {
      this.outcome.decision = "within_margin";
    } else if (last) this.outcome.decision = "no_difference_found";
    if (this.outcome.decision && !last) this.outcome.stoppedEarly = true;
  }
}

/** One line for the terminal: what was decided, when, and on what evidence. */
export function sequentialText(outcome: SequentialOutcome): string {
  const { request } = outcome;
  const last = outcome.looks.at(-1);
  if (!last) return `--until-significant ${request.a},${request.b}: no look was reached`;
  const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}`;
  const evidence =
    `${request.b} − ${request.a} = ${percent(last.difference.value)} points ` +
    `[${percent(last.difference.lo)}, ${percent(last.difference.hi)}], |Z| = ${Math.abs(last.z).toFixed(2)} ` +
    `vs boundary ${last.boundary.toFixed(2)}`;
  const when = `look ${last.look} of ${Math.max(1, Math.min(request.looks, outcome.plannedItems))}, ${last.items} of ${outcome.plannedItems} items`;
  const verdict =
    outcome.decision === "differ"
      ? "the configurations differ"
      : outcome.decision === "within_margin"
        ? `any difference is within ±${((request.margin ?? 0) * 100).toFixed(1)} points`
        : outcome.decision === "no_difference_found"
          ? "no significant difference on the whole dataset"
          : "not decided yet (the run is incomplete)";
  return `${outcome.stoppedEarly ? "stopped early" : "ran to the end"}: ${verdict} (${when}; ${evidence}; α = ${request.alpha}, O'Brien–Fleming spending)`;
}
