/**
 * A run of conversations (summary.json `conversations`): per model × configuration, success overall,
 * on the conversations whose gold tools were shown, turns right, asking, pass^k / pass@k and success
 * per kind; then the turns right by turn index (the chart of where conversations break); then the
 * failure class at each conversation's first failing turn.
 */
import { CONVERSATION_FAILURES, type ConversationRow } from "../../bench/conversation/score.ts";
import { CONVERSATION_KINDS } from "../../bench/dataset/types.ts";
import { rate } from "../../bench/scoring/rate.ts";
import type { RunSet } from "../run-set.ts";
import {
  type Column,
  checkTable,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  numberCell,
  type ReportTable,
  rateCell,
} from "../table.ts";

export function conversationRows(set: RunSet): ConversationRow[] {
  return set.runs.flatMap((run) => run.summary.conversations?.rows ?? []);
}

export function conversationTables(set: RunSet, heading: (title: string) => string): ReportTable[] {
  const rows = conversationRows(set);
  if (rows.length === 0) return [];
  const none = rate(0, 0);
  const rates = (header: string): Column => ({ header, kind: "rate" });
  const depth = Math.max(...rows.map((row) => row.byTurnIndex.length));
  const turns = Array.from({ length: depth }, (_, index) => index);
  const key = (row: ConversationRow) => ({ model: row.model, config: row.config });
  return [
    checkTable({
      id: "conversations",
      title: heading("Conversations"),
      notes: [
        "Success: every turn right (calls, state, answer, and asked exactly when the turn needed it). " +
          "pass^k: every repeat succeeded; pass@k: at least one did.",
      ],
      columns: [
        ...MODEL_CONFIG_COLUMNS,
        rates("success"),
        rates("gold shown"),
        rates("turns right"),
        rates("asked when needed"),
        rates("asked needlessly"),
        rates("pass^k"),
        rates("pass@k"),
        { header: "turns before failing", kind: "number" },
        ...CONVERSATION_KINDS.map(rates),
      ],
      rows: rows.map((row) => ({
        key: key(row),
        cells: [
          ...modelConfigCells(row),
          rateCell(row.success, "counts"),
          rateCell(row.successShown, "counts"),
          rateCell(row.turns, "counts"),
          rateCell(row.askedWhenNeeded, "counts"),
          rateCell(row.askedNeedlessly, "counts"),
          rateCell(row.repeats?.passHatK ?? none, "counts"),
          rateCell(row.repeats?.passAtK ?? none, "counts"),
          numberCell(row.meanTurnsCompleted),
          ...CONVERSATION_KINDS.map((kind) => rateCell(row.byKind[kind] ?? none, "counts")),
        ],
      })),
    }),
    checkTable({
      id: "conversation-turns",
      title: heading("Turns right by turn index"),
      notes: ["Of the conversations that reached the turn: where conversations break."],
      columns: [...MODEL_CONFIG_COLUMNS, ...turns.map((index) => rates(`turn ${index + 1}`))],
      rows: rows.map((row) => ({
        key: key(row),
        cells: [...modelConfigCells(row), ...turns.map((index) => rateCell(row.byTurnIndex[index] ?? none, "counts"))],
      })),
    }),
    checkTable({
      id: "conversation-failures",
      title: heading("Conversation failures"),
      notes: ["The class of each failed conversation, at its first failing turn."],
      columns: [
        ...MODEL_CONFIG_COLUMNS,
        ...CONVERSATION_FAILURES.map((kind): Column => ({ header: kind, kind: "number" })),
      ],
      rows: rows.map((row) => ({
        key: key(row),
        cells: [
          ...modelConfigCells(row),
          ...CONVERSATION_FAILURES.map((kind) => numberCell(row.failures[kind] ?? 0, 0)),
        ],
      })),
    }),
  ];
}
