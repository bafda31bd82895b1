/**
 * `pnpm bench --dataset <file of conversations>`: the conversation runner (src/bench/conversation),
 * its summary as tables — one row per model × configuration, success per kind, success by turn index —
 * or with --json as JSON.
 */
import { type ConversationBenchSummary, runConversationBench } from "../bench/conversation/bench.ts";
import type { ConversationRow } from "../bench/conversation/score.ts";
import { CONVERSATION_KINDS } from "../bench/dataset/types.ts";
import type { Rate } from "../bench/scoring/index.ts";
import { shownPath } from "../report/paths.ts";
import { FlagError, parsePositiveInt } from "./flags.ts";
import { startProgress } from "./progress.ts";
import { compactTable } from "./table.ts";

export interface ConversationFlags {
  model?: string;
  config?: string;
  dataset: string[];
  seed: string;
  repeats: string;
  shuffle?: string;
  models?: string;
  registry?: string[];
  json?: boolean;
}

export async function conversationBenchCommand(flags: ConversationFlags): Promise<void> {
  if (!flags.model) throw new FlagError("BAD_FLAG", "--model is required, e.g. --model sim:oracle");
  const progress = startProgress({ label: "conversations", total: 1 });
  const summary = await runConversationBench({
    dataset: flags.dataset,
    models: list(flags.model),
    ...(flags.config ? { configs: list(flags.config) } : {}),
    seed: Number.parseInt(flags.seed, 10),
    repeats: parsePositiveInt("--repeats", flags.repeats),
    ...(flags.shuffle === undefined ? {} : { shuffle: Number.parseInt(flags.shuffle, 10) }),
    ...(flags.models ? { modelsFile: flags.models } : {}),
    ...(flags.registry && flags.registry.length > 0 ? { registries: flags.registry } : {}),
    onProgress: (done, total) => {
      progress.setTotal(total);
      progress.update(done);
    },
  }).finally(() => progress.stop());
  const { scores: _scores, ...shown } = summary;
  process.stdout.write(flags.json ? `${JSON.stringify(shown)}\n` : conversationText(summary));
  process.stderr.write(`run ${summary.runId} → ${shownPath(summary.dir, process.cwd())}/\n`);
}

function list(text: string): string[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

function percent(value: Rate): string {
  return value.value === null ? "–" : `${(value.value * 100).toFixed(0)}% (${value.k}/${value.n})`;
}

export function conversationText(summary: ConversationBenchSummary): string {
  const rows = compactTable({
    head: ["model", "config", "success", "gold shown", "turns", "asked/needed", "needless", "pass^k"],
  });
  for (const row of summary.rows) {
    rows.push([
      row.model,
      row.config,
      percent(row.success),
      percent(row.successShown),
      percent(row.turns),
      percent(row.askedWhenNeeded),
      percent(row.askedNeedlessly),
      row.repeats ? `${percent(row.repeats.passHatK)} k=${row.repeats.k}` : "–",
    ]);
  }
  const kinds = compactTable({ head: ["model × config", ...CONVERSATION_KINDS] });
  for (const row of summary.rows)
    kinds.push([rowName(row), ...CONVERSATION_KINDS.map((kind) => percent(row.byKind[kind] as Rate))]);
  const lines = [
    "Conversations: success = every turn right (calls, state, answer, asked exactly when needed)",
    rows.toString(),
    "",
    "Success per kind",
    kinds.toString(),
    "",
    "Turns right by turn index (of the conversations that reached it)",
    ...summary.rows.flatMap((row) => [rowName(row), ...turnChart(row)]),
    ...failureLines(summary.rows),
    ...bfclLines(summary),
  ];
  return `${lines.join("\n")}\n`;
}

/** BFCL multi-turn runs: the leaderboard's figure per row, its error types, the calls in empty turns. */
function bfclLines(summary: ConversationBenchSummary): string[] {
  if (!summary.bfcl) return [];
  const table = compactTable({ head: ["model × config", "BFCL accuracy", "empty turns with calls", "calls there"] });
  for (const [row, figures] of Object.entries(summary.bfcl))
    table.push([row, percent(figures.accuracy), percent(figures.emptyTurns), String(figures.callsInEmptyTurns)]);
  const errors = Object.entries(summary.bfcl)
    .filter(([, figures]) => Object.keys(figures.errorTypes).length > 0)
    .map(
      ([row, figures]) =>
        `  ${row}: ${Object.entries(figures.errorTypes)
          .map(([type, count]) => `${type} ${count}`)
          .join(", ")}`,
    );
  return [
    "",
    "BFCL multi-turn (BFCL's checker: every turn with ground truth passes the empty, state and response checks;",
    "a turn whose ground truth is empty is not checked, its calls are counted apart)",
    table.toString(),
    ...(errors.length > 0 ? ["BFCL error types (the first failing check of each entry)", ...errors] : []),
  ];
}

function rowName(row: ConversationRow): string {
  return `${row.model} × ${row.config}`;
}

const BAR = 30;

/** One line per turn index: a bar of the share right, and the count. */
function turnChart(row: ConversationRow): string[] {
  return row.byTurnIndex.map((rate, index) => {
    const share = rate.value ?? 0;
    const filled = Math.round(share * BAR);
    return `  turn ${String(index + 1).padStart(2)} ${"█".repeat(filled)}${"·".repeat(BAR - filled)} ${percent(rate)}`;
  });
}

function failureLines(rows: readonly ConversationRow[]): string[] {
  const lines = rows
    .filter((row) => Object.keys(row.failures).length > 0)
    .map(
      (row) =>
        `  ${rowName(row)}: ${Object.entries(row.failures)
          .map(([kind, count]) => `${kind} ${count}`)
          .join(", ")}`,
    );
  return lines.length > 0 ? ["", "Failures (at the first failing turn)", ...lines] : [];
}
