/**
 * `dataset check [--dataset PATH…] [--registry FILE…] [--allow-writes] [--json]`: is the labeled data fit to
 * benchmark with? (exit 2 when not). `dataset new --registry FILE… --out FILE`: a starter dataset, one TODO
 * item per tool of the servers, and its suite.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Command } from "commander";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { checkDataset, type DatasetCheckReport } from "../bench/dataset/check.ts";
import { formatProblem } from "../bench/dataset/errors.ts";
import { starterConversations, starterItems, starterSuite } from "../bench/dataset/starter.ts";
import { readOnlyIn } from "../bench/dataset/state-checks.ts";
import type { ConversationItem, DatasetItem } from "../bench/dataset/types.ts";
import { InputError } from "../errors.ts";
import { ClientPool } from "../mcp/pool.ts";
import { loadRegistries } from "../mcp/registry.ts";
import { FlagError, repeated } from "./flags.ts";
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
    .option("--registry <file>", "a registry of the servers (repeatable; default: the mock servers')", repeated, [])
    .option("--allow-writes", "replay gold write calls even where the server's reset cannot undo them")
    .option("--json", "print JSON for machines")
    .action(async (options: { dataset?: string[]; registry: string[]; allowWrites?: boolean; json?: boolean }) => {
      let progress: ReturnType<typeof startProgress> | undefined;
      const report = await checkDataset({
        paths: options.dataset,
        minimums: options.dataset === undefined,
        registries: options.registry,
        allowWrites: options.allowWrites === true,
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
  dataset
    .command("new")
    .description("write a starter dataset: one TODO item per tool of the servers, and its suite.yaml")
    .option("--registry <file>", "a registry of the servers (repeatable)", repeated, [])
    .requiredOption("--out <file>", "the dataset file to write (name.jsonl; name.suite.yaml goes beside it)")
    .option("--conversations", "draft one two-turn conversation per server instead of one item per tool")
    .action(async (options: { registry: string[]; out: string; conversations?: boolean }) => {
      const written = await newDataset(options.registry, options.out, options.conversations === true);
      process.stdout.write(
        `wrote ${written.items} starter ${options.conversations ? "conversations" : "items"} to ${options.out} and its suite to ${written.suite}
` +
          `next: finish each TODO item, then run pnpm dataset check --dataset ${options.out}${options.registry.map((file) => ` --registry ${file}`).join("")}
`,
      );
    });
}

/** Connects the registry's servers and writes one starter item per tool, and the suite beside the file. */
export async function newDataset(
  registries: readonly string[],
  out: string,
  conversations = false,
): Promise<{ items: number; suite: string }> {
  if (registries.length === 0)
    throw new FlagError("BAD_FLAG", "dataset new: --registry FILE is required (the servers to draft items for)");
  if (!out.endsWith(".jsonl")) throw new FlagError("BAD_FLAG", `--out ${out}: a dataset file ends in .jsonl`);
  const name = basename(out, ".jsonl");
  const suite = join(dirname(out), `${name}.suite.yaml`);
  for (const file of [out, suite]) {
    if (existsSync(file)) throw new FlagError("BAD_FLAG", `--out ${out}: ${file} exists; choose another name`);
  }
  const registry = loadRegistries(registries);
  const pool = await ClientPool.open(registry, { transport: "memory", mocks: mockServerFactories });
  let items: (DatasetItem | ConversationItem)[];
  try {
    const draft = conversations ? starterConversations : starterItems;
    items = draft(pool.listTools(), readOnlyIn(registry));
  } finally {
    await pool.close();
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, items.map((item) => `${JSON.stringify(item)}\n`).join(""));
  writeFileSync(suite, starterSuite(name, pool.serverNames()));
  return { items: items.length, suite };
}

function renderReport(report: DatasetCheckReport): string {
  const table = cliTable({ head: ["category", "items"] });
  for (const [category, count] of Object.entries(report.byCategory)) table.push([category, count]);
  const servers = cliTable({ head: ["server", "items"] });
  for (const [server, count] of Object.entries(report.byServer)) servers.push([server, count]);
  const lines = [
    `${report.items} items${report.conversations > 0 ? ` and ${report.conversations} conversations` : ""} in ${report.files.length} files; writes ${report.writes} (${(report.writeShare * 100).toFixed(1)}%); ` +
      `difficulty ${Object.entries(report.byDifficulty)
        .map(([level, count]) => `${level} ${count}`)
        .join(", ")}`,
    table.toString(),
    servers.toString(),
    `gold replay: ${report.goldReplay.passed} passed, ${report.goldReplay.failed} failed, ${report.goldReplay.skipped.length} not replayed to the end`,
    `near-duplicate pairs (token Jaccard ≥ 0.8): ${report.nearDuplicates}`,
    ...listed("problems", report.problems.map(formatProblem)),
    ...listed(
      "gold replay failures",
      report.goldReplay.failures.map((failure) => `${failure.file}:${failure.line} (${failure.id}): ${failure.reason}`),
    ),
    ...listed(
      "gold replay skipped",
      report.goldReplay.skipped.map((skip) => `${skip.file}:${skip.line} (${skip.id}): ${skip.reason}`),
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
