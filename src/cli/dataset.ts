/** `dataset check [--dataset PATH…] [--json]`: is the labeled data fit to benchmark with? (exit 2 when not) */
import type { Command } from "commander";
import { checkDataset, type DatasetCheckReport } from "../bench/dataset/check.ts";
import { formatProblem } from "../bench/dataset/errors.ts";
import { InputError } from "../errors.ts";
import { REGISTRY_FLAG, repeated } from "./flags.ts";
import { startProgress } from "./progress.ts";
import { cliTable } from "./table.ts";

const SHOWN = 20;

export function registerDatasetCommands(program: Command): void {
  const dataset = program.command("dataset").description("the labeled query dataset");
  dataset
    .command("check")
    .description("schema, tool-schema cross-check, near-duplicates, coverage and gold replay")
    .option(
      "--dataset <paths...>",
      "dataset files, folders or patterns (default: datasets/*.jsonl, with size minimums)",
    )
    .option(REGISTRY_FLAG.flags, REGISTRY_FLAG.description, repeated)
    .option("--json", "print JSON for machines")
    .action(async (options: { dataset?: string[]; registry?: string[]; json?: boolean }) => {
      let progress: ReturnType<typeof startProgress> | undefined;
      const report = await checkDataset({
        paths: options.dataset,
        minimums: options.dataset === undefined,
        ...(options.registry ? { registries: options.registry } : {}),
        onReplayProgress: (done, total) => {
          progress ??= startProgress({ label: "gold replay", total });
          progress.update(done);
        },
      });
      progress?.stop();
      process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : renderReport(report));
      if (!report.ok) {
        const failed = report.goldReplay.failed;
        throw new InputError(
          "DATASET_CHECK_FAILED",
          `dataset check failed: ${report.problems.length} problems, ${report.nearDuplicates} near-duplicate pairs, ` +
            `${failed} gold replay failures, ${report.unmet.length} unmet size requirements`,
        );
      }
    });
}

function renderReport(report: DatasetCheckReport): string {
  const table = cliTable({ head: ["category", "items"] });
  for (const [category, count] of Object.entries(report.byCategory)) table.push([category, count]);
  const servers = cliTable({ head: ["server", "items"] });
  for (const [server, count] of Object.entries(report.byServer)) servers.push([server, count]);
  const lines = [
    `${report.items} items in ${report.files.length} files; writes ${report.writes} (${(report.writeShare * 100).toFixed(1)}%); ` +
      `difficulty ${Object.entries(report.byDifficulty)
        .map(([level, count]) => `${level} ${count}`)
        .join(", ")}`,
    table.toString(),
    servers.toString(),
    `gold replay: ${report.goldReplay.passed} passed, ${report.goldReplay.failed} failed`,
    `near-duplicate pairs (token Jaccard ≥ 0.8): ${report.nearDuplicates}`,
    ...listed("problems", report.problems.map(formatProblem)),
    ...listed(
      "gold replay failures",
      report.goldReplay.failures.map((failure) => `${failure.file}:${failure.line} (${failure.id}): ${failure.reason}`),
    ),
    ...listed(
      "near duplicates",
      report.nearDuplicatePairs.map((pair) => `${pair.a} ~ ${pair.b} (${pair.similarity})`),
    ),
    ...listed("unmet size requirements", report.unmet),
    report.ok ? "dataset OK" : "dataset NOT OK",
  ];
  return `${lines.join("\n")}\n`;
}

function listed(title: string, entries: string[]): string[] {
  if (entries.length === 0) return [];
  const more = entries.length > SHOWN ? [`  … and ${entries.length - SHOWN} more (--json lists all)`] : [];
  return [`${title} (${entries.length}):`, ...entries.slice(0, SHOWN).map((entry) => `  ${entry}`), ...more];
}
