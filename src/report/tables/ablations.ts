/**
 * One table per ablation axis: the reference configuration and every configuration that changes only
 * that axis, per model, each with the paired test (McNemar exact) of its difference to the reference.
 */

import type { ResolvedConfig } from "../../bench/run/run-file-types.ts";
import type { PairedTest } from "../../bench/scoring/compare.ts";
import { rate } from "../../bench/scoring/rate.ts";
import type { SummaryRow } from "../../bench/scoring/summarize.ts";
import { ABLATION_AXES, type AblationAxis, againstReference, axisOf, settingText } from "../ablation.ts";
import { byRunOrder, type LoadedRun, type RunSet } from "../run-set.ts";
import {
  type Cell,
  checkTable,
  deltaCell,
  MODEL_CONFIG_COLUMNS,
  numberCell,
  pCell,
  type ReportTable,
  rateCell,
  textCell,
} from "../table.ts";

/** A configuration of one model placed on an axis (the reference is on every axis). */
export interface AblationMember {
  run: LoadedRun;
  row: SummaryRow;
  axis: AblationAxis;
  resolved: ResolvedConfig;
  isReference: boolean;
}

/** Members per axis id, in table order; axes with no ablated configuration are left out. */
export function ablationMembers(set: RunSet, reference: string): Map<string, AblationMember[]> {
  const members = new Map<string, AblationMember[]>();
  for (const run of set.runs) {
    for (const model of run.manifest.models.map((entry) => entry.name)) {
      const resolved = run.manifest.resolved[model] ?? {};
      const referenceConfig = resolved[reference];
      const rows = byRunOrder(
        set,
        run.summary.rows.filter((row) => row.model === model),
      );
      const referenceRow = rows.find((row) => row.config === reference);
      if (!referenceConfig || !referenceRow) continue;
      for (const row of rows) {
        const config = resolved[row.config];
        const axis = config && axisOf(config, referenceConfig);
        if (!axis) continue;
        const list = members.get(axis.id) ?? [];
        if (!list.some((member) => member.isReference && member.row.model === model)) {
          list.push({ run, row: referenceRow, axis, resolved: referenceConfig, isReference: true });
        }
        list.push({ run, row, axis, resolved: config, isReference: false });
        members.set(axis.id, list);
      }
    }
  }
  return new Map(
    ABLATION_AXES.flatMap((axis) => {
      const list = members.get(axis.id);
      return list ? [[axis.id, sortMembers(set, list)] as const] : [];
    }),
  );
}

/** Filter N in numeric order (`all` last); other axes: the reference first, then the run order. */
function sortMembers(set: RunSet, members: AblationMember[]): AblationMember[] {
  const modelRank = (member: AblationMember) => set.models.indexOf(member.row.model);
  const within = (member: AblationMember) => {
    if (member.axis.id === "filter") return filterRank(member.resolved.filter);
    return member.isReference ? -1 : set.configs.indexOf(member.row.config);
  };
  return [...members].sort((a, b) => modelRank(a) - modelRank(b) || within(a) - within(b));
}

/** Position of a filter setting on the x axis: N, with `all` after every N. */
export function filterRank(filter: number | "all"): number {
  return filter === "all" ? Number.MAX_SAFE_INTEGER : filter;
}

export function ablationTables(set: RunSet, reference: string, heading: (title: string) => string): ReportTable[] {
  const tables: ReportTable[] = [];
  for (const [axisId, members] of ablationMembers(set, reference)) {
    const axis = members[0]!.axis;
    tables.push(
      checkTable({
        id: `ablation-${axisId}`,
        title: heading(axis.title),
        notes: [
          `Δ: the configuration minus \`${reference}\` on the same items (paired by item and repeat), with Newcombe's ` +
            "95% interval; p: McNemar's exact test on the discordant pairs.",
        ],
        columns: [
          ...MODEL_CONFIG_COLUMNS,
          { header: "setting", kind: "text" },
          { header: "n", kind: "number" },
          { header: "task success [95% CI]", kind: "rate" },
          { header: `Δ task success vs ${reference}`, kind: "delta" },
          { header: "p (task success)", kind: "p" },
          { header: "tool choice", kind: "rate" },
          { header: `Δ tool choice vs ${reference}`, kind: "delta" },
          { header: "p (tool choice)", kind: "p" },
          { header: "params", kind: "rate" },
          { header: "gold shown", kind: "rate" },
          { header: "calls/item", kind: "number" },
          { header: "p50 ms", kind: "number" },
        ],
        rows: members.map((member) => {
          const paired = member.isReference
            ? undefined
            : againstReference(member.run.summary.comparisons, member.row.model, reference, member.row.config);
          return {
            key: { model: member.row.model, config: member.row.config },
            cells: [
              textCell(member.row.model),
              textCell(member.isReference ? `${member.row.config} (reference)` : member.row.config),
              textCell(settingText(axis, member.resolved)),
              numberCell(member.row.n, 0),
              rateCell(member.row.taskSuccess, "interval"),
              ...testCells(paired?.taskSuccess),
              rateCell(member.row.toolChoice),
              ...testCells(paired?.toolChoice),
              rateCell(member.row.paramAccuracy),
              // a run summarised before visibility was measured has no goldVisible
              rateCell(member.row.goldVisible ?? rate(0, 0)),
              numberCell(member.row.callsPerItem, 2),
              numberCell(member.row.p50Ms?.value ?? null, 0),
            ],
          };
        }),
      }),
    );
  }
  return tables;
}

/** Δ and p of a paired test; `–` when there is none or no pair where the metric applies. */
function testCells(test: PairedTest | undefined): [Cell, Cell] {
  if (!test || test.n === 0) return [deltaCell(null), pCell(null)];
  return [deltaCell(test.difference), pCell(test.pValue)];
}
