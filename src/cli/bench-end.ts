/**
 * What the bench prints after its table: where the run went, and what to do next with it. A run of the
 * stand-in also says what the stand-in answers: only the items of the dataset it was started with.
 */
import type { Provenance } from "../models/provenance.ts";
import { shownPath } from "../report/paths.ts";

export interface BenchEnd {
  runId: string;
  dir: string;
  records: number;
  /** What the records count leaves out or counts again (`12 from before the resume`). */
  before: string[];
  /** Whose answers the run's models gave (a stand-in's: `pnpm standin`). */
  provenance: readonly Provenance[];
  /** A model played the user of the conversations (`--user-model`). */
  userModel?: string;
}

export function benchEndLines(end: BenchEnd, cwd: string = process.cwd()): string[] {
  const before = end.before.length > 0 ? ` (${end.before.join(", ")})` : "";
  return [
    `run ${end.runId}: ${end.records} records${before} → ${shownPath(end.dir, cwd)}/`,
    ...(end.userModel
      ? [`the user was played by ${end.userModel} (not the scripted user: its answers are on the turns)`]
      : []),
    ...(end.provenance.some((provenance) => provenance.kind === "stand-in")
      ? [
          "the stand-in answers only the items of the dataset it was started with; for yours: pnpm standin --dataset FILE",
        ]
      : []),
    `next: pnpm report ${end.runId} (report beside the run) · pnpm run view (browse its items)`,
  ];
}
