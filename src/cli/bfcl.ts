/**
 * `bfcl score <result-dir…>`: scores recorded BFCL outputs in BFCL mode, with agreement against
 * BFCL's score files. `bfcl import`: BFCL categories → dataset files. `bfcl uplift <result-dir…>`:
 * replays recorded outputs through the pipeline and reports what its repairs fix and break.
 * A result dir is a model's folder of BFCL_v3_<cat>_result.json files, or a folder of such folders.
 * Bad input exits with code 2.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Command } from "commander";
import { availableCategories } from "../bfcl/catalog.ts";
import { checkCategories } from "../bfcl/dataset.ts";
import { auditLiveCategory } from "../bfcl/live.ts";
import { DEFAULT_BFCL_DATA_DIR, DEFAULT_BFCL_V4_DATA_DIR } from "../bfcl/paths.ts";
import { toJsonReports, toTerminalReports } from "../bfcl/report.ts";
import { resolveResultDirs, scoreResultDir } from "../bfcl/score-dir.ts";
import { writeBfclDataset } from "../bfcl/write-dataset.ts";
import { InputError } from "../errors.ts";
import { REPO_ROOT } from "../paths.ts";
import { reportError } from "./exit.ts";
import { FlagError, parsePositiveInt } from "./flags.ts";

export interface BfclCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: BfclCliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

interface ScoreFlags {
  readonly data: string;
  readonly dataV4: string;
  readonly scores?: string;
  readonly json?: boolean;
  readonly dotsAsUnderscores?: boolean;
}

interface ImportFlags {
  readonly data: string;
  readonly categories?: string;
  readonly out: string;
}

interface UpliftFlags {
  readonly data: string;
  readonly json?: boolean;
  readonly report?: string;
  readonly concurrency: string;
}

/** Bad input → one line on stderr (as every command writes it) and exit code 2; anything else propagates (exit code 1). */
async function guarded(io: BfclCliIo, action: () => void | Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    process.exitCode = reportError(error, io.stderr);
  }
}

/** `--data DIR` resolved; a folder that is not there is bad input naming the flag and what it should hold. */
function dataDirOf(flag: string): string {
  const dir = resolve(flag);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new FlagError(
      "BAD_FLAG",
      `--data ${flag}: no such folder; give BFCL's data folder (BFCL_v3_<category>.json files and possible_answer/), by default ${DEFAULT_BFCL_DATA_DIR}`,
    );
  }
  return dir;
}

export function registerBfclCommands(program: Command, io: BfclCliIo = processIo): Command {
  const bfcl = program.command("bfcl").description("Berkeley Function Calling Leaderboard track");
  const dataOption = [
    "--data <dir>",
    "BFCL data folder (questions + possible_answer/)",
    DEFAULT_BFCL_DATA_DIR,
  ] as const;

  bfcl
    .command("score")
    .description(
      "score recorded BFCL outputs (BFCL_v3_<cat>_result.json, BFCL_v4_multi_turn_<cat>_result.json) and compare with BFCL's score files",
    )
    .argument("<result-dir...>", "model folders of result files (e.g. result/<model>), or folders of model folders")
    .option(...dataOption)
    .option("--data-v4 <dir>", "BFCL v4 data folder (multi-turn entries and ground truth)", DEFAULT_BFCL_V4_DATA_DIR)
    .option("--scores <dir>", "BFCL score files folder (default: score/<model> beside result/<model>)")
    .option("--dots-as-underscores", "match expected `a.b` names as `a_b` (function-calling APIs)")
    .option("--json", 'print JSON: {"categories": …} for one model, {"models": {name: {"categories": …}}} for several')
    .action((paths: string[], flags: ScoreFlags) =>
      guarded(io, () => {
        const options = {
          dataDir: dataDirOf(flags.data),
          scoresDir: flags.scores === undefined ? undefined : resolve(flags.scores),
          dotsAsUnderscores: flags.dotsAsUnderscores,
          v4DataDir: resolve(flags.dataV4),
        };
        const models = resolveResultDirs(paths.map((p) => resolve(p))).map((dir) => ({
          model: basename(dir),
          resultDir: dir,
          scores: scoreResultDir(dir, options),
        }));
        io.stdout(flags.json ? `${JSON.stringify(toJsonReports(models), null, 2)}\n` : toTerminalReports(models));
      }),
    );

  bfcl
    .command("import")
    .description("BFCL questions → dataset files: bfcl_<cat>.jsonl (items) + bfcl_<cat>.tools.json (tools per item)")
    .option(...dataOption)
    .option("--categories <list>", "comma-separated categories (default: every category in the data folder)")
    .option("--out <dir>", "where to write", join(REPO_ROOT, "results", "bfcl-dataset"))
    .action((flags: ImportFlags) =>
      guarded(io, () => {
        const dataDir = dataDirOf(flags.data);
        const categories =
          flags.categories === undefined
            ? availableCategories(dataDir)
            : checkCategories(flags.categories.split(","), dataDir, "--categories");
        for (const written of writeBfclDataset({ dataDir, categories, outDir: resolve(flags.out) })) {
          const { easy, medium, hard } = written.difficulty;
          io.stdout(
            `${written.category}: ${written.items} items (easy ${easy}, medium ${medium}, hard ${hard}) → ${written.itemsFile}, ${written.toolsFile}\n`,
          );
          if (!written.category.startsWith("live_")) continue;
          // v4's live docs are messy: name every entry a configuration could not be scored fairly on
          const audit = auditLiveCategory(written.category, dataDir);
          io.stdout(
            `  ${audit.unusable.length} of ${audit.entries} unusable, ground truth replayed: ${audit.goldPassed}/${audit.entries} pass\n`,
          );
          for (const { id, reason } of audit.unusable) io.stdout(`  unusable ${id}: ${reason}\n`);
        }
      }),
    );

  bfcl
    .command("uplift")
    .description("replay recorded outputs through the pipeline: strict BFCL accuracy vs after its repairs")
    .argument("<result-dir...>", "model folders of result files, or folders of model folders")
    .option(...dataOption)
    .option("--json", "print the summary as JSON")
    .option("--report <dir>", "also write bfcl-replay.md and its csv files into this folder")
    .option("--concurrency <n>", "agent runs in flight at once", "8")
    .action((paths: string[], flags: UpliftFlags) =>
      guarded(io, async () => {
        // Loaded on use: the agent and the MCP SDK behind these would slow every `bfcl score` start-up.
        const { runUplift } = await import("../bfcl/uplift.ts");
        const { summarizeUplift } = await import("../bfcl/uplift-summary.ts");
        const { renderUpliftFiles, upliftTerminal } = await import("../bfcl/uplift-report.ts");
        const dataDir = dataDirOf(flags.data);
        const concurrency = parsePositiveInt("--concurrency", flags.concurrency);
        const given = paths.map((p) => resolve(p));
        const resultDirs = resolveResultDirs(given);
        io.stderr(`replaying ${resultDirs.map((dir) => basename(dir)).join(", ")}…\n`);
        const models = await runUplift(
          resultDirs.map((dir) => ({ model: basename(dir), resultDir: dir })),
          {
            dataDir,
            concurrency,
            onProgress: (done, total) => {
              if (done % 100 === 0 || done === total) io.stderr(`  ${done}/${total} questions\n`);
            },
          },
        );
        const summary = summarizeUplift(models);
        if (flags.report !== undefined) {
          const out = resolve(flags.report);
          mkdirSync(out, { recursive: true });
          const files = Object.entries(renderUpliftFiles(models, summary, { resultDirs: given, dataDir }));
          for (const [name, text] of files) writeFileSync(join(out, name), text);
          io.stderr(`wrote ${files.map(([name]) => join(out, name)).join(", ")}\n`);
        }
        io.stdout(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : upliftTerminal(summary));
      }),
    );
  return bfcl;
}
