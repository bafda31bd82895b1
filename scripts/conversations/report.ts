/**
 * The conversation report of one model (default sim:slm-3b, seed 1) on the conversation dataset, every
 * configuration that holds a conversation: a chart of turns right by turn index (SVG, src/report/svg.ts)
 * and a markdown file with the per-kind table and the figures behind the chart. Regenerate with
 *
 *   pnpm exec tsx scripts/conversations/report.ts [--model sim:slm-3b] [--seed 1] [--out reports/conversations]
 *
 * The run itself goes to a temporary results folder (the figures are what is kept). Simulated numbers
 * are labelled simulated.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ConversationRow } from "../../src/bench/conversation/score.ts";
import { CONVERSATION_CONFIGS } from "../../src/bench/conversation/task.ts";
import { CONVERSATION_KINDS } from "../../src/bench/dataset/types.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { Rate } from "../../src/bench/scoring/index.ts";
import { percent, successCells } from "../../src/cli/conversation-text.ts";
import { REPO_ROOT } from "../../src/paths.ts";
import { lineChart } from "../../src/report/svg.ts";

const DATASET = "datasets/conversations/conversations.jsonl";

const { values } = parseArgs({
  options: {
    model: { type: "string", default: "sim:slm-3b" },
    seed: { type: "string", default: "1" },
    out: { type: "string", default: "reports/conversations" },
  },
});
const model = values.model;
const seed = Number.parseInt(values.seed, 10);
const out = resolve(REPO_ROOT, values.out);
const slug = model.replace(/[^A-Za-z0-9.-]+/g, "-");
// the simulator's profiles are named sim:…; any other model's figures are measured
const label = model.startsWith("sim:") ? "simulated" : "measured";

const root = mkdtempSync(join(tmpdir(), "conversation-report-"));
try {
  // the standard run (`pnpm bench --dataset …`); its summary's conversation block holds the rows
  const { summary } = await runBench({
    request: {
      models: [model],
      configs: [...CONVERSATION_CONFIGS],
      dataset: [join(REPO_ROOT, DATASET)],
      filter: {},
      seed,
      repeats: 1,
      transport: "memory",
    },
    resultsRoot: root,
  });
  const rows = summary.conversations?.rows ?? [];
  mkdirSync(out, { recursive: true });
  const chartFile = join(out, `${slug}-success-by-turn.svg`);
  writeFileSync(chartFile, `${byTurnChart(rows)}\n`);
  const tableFile = join(out, `${slug}.md`);
  writeFileSync(tableFile, markdown(rows, relative(out, chartFile)));
  process.stdout.write(`${relative(REPO_ROOT, tableFile)}\n${relative(REPO_ROOT, chartFile)}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}

function byTurnChart(rows: readonly ConversationRow[]): string {
  const depth = Math.max(...rows.map((row) => row.byTurnIndex.length));
  const categories = Array.from({ length: depth }, (_, index) => `${index + 1}`);
  return lineChart({
    id: `conversations-${slug}-by-turn`,
    title: `${model} (${label}): turns right by turn index`,
    xLabel: "turn (of the conversations that reached it)",
    yLabel: "turns right",
    categories,
    series: rows.map((row) => ({
      name: row.config,
      points: row.byTurnIndex.flatMap((turn, index) =>
        turn.value === null
          ? []
          : [
              {
                category: `${index + 1}`,
                value: turn.value,
                lo: turn.lo,
                hi: turn.hi,
                detail: `${row.config}, turn ${index + 1}: ${percent(turn)}`,
              },
            ],
      ),
    })),
  });
}

function markdown(rows: readonly ConversationRow[], chart: string): string {
  const table = (head: string[], body: string[][]) => [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...body.map((cells) => `| ${cells.join(" | ")} |`),
  ];
  const depth = Math.max(...rows.map((row) => row.byTurnIndex.length));
  return [
    `# Conversations: ${model} (${label}), seed ${seed}`,
    "",
    `\`${DATASET}\` through every configuration that holds a conversation. Success = every turn right`,
    "(calls, state, answer, asked exactly when needed); a turn is right by the same rule. Regenerate with",
    "`pnpm exec tsx scripts/conversations/report.ts`.",
    "",
    "## Success per configuration",
    "",
    ...table(
      ["config", "success", "gold shown", "turns right", "asked when needed", "asked needlessly"],
      rows.map((row) => [row.config, ...successCells(row)]),
    ),
    "",
    "## Success per kind",
    "",
    ...table(
      ["config", ...CONVERSATION_KINDS],
      rows.map((row) => [row.config, ...CONVERSATION_KINDS.map((kind) => percent(row.byKind[kind] as Rate))]),
    ),
    "",
    "## Turns right by turn index",
    "",
    `![turns right by turn index](${chart})`,
    "",
    ...table(
      ["config", ...Array.from({ length: depth }, (_, index) => `turn ${index + 1}`)],
      rows.map((row) => [row.config, ...row.byTurnIndex.map(percent)]),
    ),
    "",
  ].join("\n");
}
