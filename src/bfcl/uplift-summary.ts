/**
 * Counts over replayed entries (uplift.ts): per model and category, the strict BFCL-equivalent
 * accuracy beside the accuracy of the calls the pipeline finally sent, failures fixed and passes
 * broken, what each stage changed, and the same per BFCL error type. Pure; the renderers read this.
 */
import type { BfclVerdict } from "./types.ts";
import { CHECKPOINTS, type Checkpoint, type ModelUplift, STAGES, type StageKey, type UpliftEntry } from "./uplift.ts";

export interface StageCount {
  /** Failing before the stage, passing after it. */
  fixed: number;
  /** Passing before the stage, failing after it. */
  broken: number;
}

export interface ErrorTypeRow {
  /** BFCL's error type, e.g. `type_error:simple`. */
  errorType: string;
  /** Entries the recorded output fails with this type (strict). */
  failing: number;
  /** Of those, passing after the pipeline. */
  fixed: number;
  /** Entries the recorded output passes that the pipeline makes fail with this type. */
  brokenInto: number;
}

export interface CategorySummary {
  model: string;
  /** A BFCL category, or `all` for the model's total. */
  category: string;
  entries: number;
  /** BFCL's own score file, when found; null otherwise. */
  bfclCorrect: number | null;
  strictCorrect: number;
  strictAccuracy: number;
  finalCorrect: number;
  finalAccuracy: number;
  /** Recorded output fails, final calls pass. */
  fixed: number;
  /** Recorded output passes, final calls fail. */
  broken: number;
  /** Entries where the plan parser read fewer calls than BFCL decoded from the same output. */
  callsDroppedByParser: number;
  /** Of the plan parser's fixes and breaks, those in entries where it read fewer calls (not repairs). */
  parserChangesWithDroppedCalls: StageCount;
  stages: Record<StageKey, StageCount>;
  errorTypes: ErrorTypeRow[];
}

export interface UpliftSummary {
  models: { model: string; categories: CategorySummary[]; total: CategorySummary }[];
}

function failType(verdict: BfclVerdict): string | undefined {
  return verdict.valid ? undefined : verdict.errorType;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

export function summarizeEntries(
  model: string,
  category: string,
  entries: readonly UpliftEntry[],
  bfclCorrect: number | null,
): CategorySummary {
  const passing = (at: Checkpoint) => entries.filter((e) => e.verdicts[at].valid).length;
  const stages = Object.fromEntries(
    STAGES.map((stage) => {
      const before = CHECKPOINTS[CHECKPOINTS.indexOf(stage.to) - 1]!;
      const count: StageCount = { fixed: 0, broken: 0 };
      for (const e of entries) {
        if (!e.verdicts[before].valid && e.verdicts[stage.to].valid) count.fixed++;
        if (e.verdicts[before].valid && !e.verdicts[stage.to].valid) count.broken++;
      }
      return [stage.key, count];
    }),
  ) as Record<StageKey, StageCount>;

  const types = new Map<string, ErrorTypeRow>();
  const row = (errorType: string) => {
    const known = types.get(errorType);
    if (known) return known;
    const created = { errorType, failing: 0, fixed: 0, brokenInto: 0 };
    types.set(errorType, created);
    return created;
  };
  for (const e of entries) {
    const strict = failType(e.verdicts.recorded);
    const final = failType(e.verdicts.final);
    if (strict !== undefined) {
      const r = row(strict);
      r.failing++;
      if (final === undefined) r.fixed++;
    } else if (final !== undefined) row(final).brokenInto++;
  }

  const dropped = entries.filter((e) => e.callCounts.recorded !== null && e.callCounts.parsed < e.callCounts.recorded);
  const strictCorrect = passing("recorded");
  const finalCorrect = passing("final");
  return {
    model,
    category,
    entries: entries.length,
    bfclCorrect,
    strictCorrect,
    strictAccuracy: ratio(strictCorrect, entries.length),
    finalCorrect,
    finalAccuracy: ratio(finalCorrect, entries.length),
    fixed: entries.filter((e) => !e.verdicts.recorded.valid && e.verdicts.final.valid).length,
    broken: entries.filter((e) => e.verdicts.recorded.valid && !e.verdicts.final.valid).length,
    callsDroppedByParser: dropped.length,
    parserChangesWithDroppedCalls: {
      fixed: dropped.filter((e) => !e.verdicts.recorded.valid && e.verdicts.parsed.valid).length,
      broken: dropped.filter((e) => e.verdicts.recorded.valid && !e.verdicts.parsed.valid).length,
    },
    stages,
    errorTypes: [...types.values()].sort((a, b) =>
      a.errorType < b.errorType ? -1 : a.errorType > b.errorType ? 1 : 0,
    ),
  };
}

export function summarizeUplift(models: readonly ModelUplift[]): UpliftSummary {
  return {
    models: models.map((m) => {
      const categories = m.categories.map((c) =>
        summarizeEntries(m.model, c.category, c.entries, c.bfclCorrect ?? null),
      );
      const known = m.categories.every((c) => c.bfclCorrect !== undefined);
      const total = summarizeEntries(
        m.model,
        "all",
        m.categories.flatMap((c) => c.entries),
        known ? m.categories.reduce((n, c) => n + (c.bfclCorrect ?? 0), 0) : null,
      );
      return { model: m.model, categories, total };
    }),
  };
}
