/**
 * `bfcl score <result-dir> [--data DIR] [--scores DIR] [--json]`: scores recorded BFCL outputs in
 * BFCL mode and, when BFCL's score files are found, prints agreement per category and every
 * disagreement. Bad input exits with code 2.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { toJsonReport, toTerminalReport } from "../bfcl/report.ts";
import { scoreResultDir } from "../bfcl/score-dir.ts";
import { InputError } from "../errors.ts";

/** The repo root (this file is src/cli/bfcl.ts); BFCL data lives beside the repo in ../shared. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DEFAULT_BFCL_DATA_DIR = resolve(REPO_ROOT, "..", "shared", "bfcl", "data");

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
  readonly scores?: string;
  readonly json?: boolean;
  readonly dotsAsUnderscores?: boolean;
}

export function registerBfclCommands(program: Command, io: BfclCliIo = processIo): Command {
  const bfcl = program.command("bfcl").description("Berkeley Function Calling Leaderboard track");
  bfcl
    .command("score")
    .description("score recorded BFCL outputs (BFCL_v3_<cat>_result.json) and compare with BFCL's score files")
    .argument("<result-dir>", "folder of BFCL_v3_<category>_result.json files (e.g. result/<model>)")
    .option("--data <dir>", "BFCL data folder (questions + possible_answer/)", DEFAULT_BFCL_DATA_DIR)
    .option("--scores <dir>", "BFCL score files folder (default: score/<model> beside result/<model>)")
    .option("--dots-as-underscores", "match expected `a.b` names as `a_b` (function-calling APIs)")
    .option("--json", "print JSON instead of a table")
    .action((resultDir: string, flags: ScoreFlags) => {
      try {
        const scores = scoreResultDir(resolve(resultDir), {
          dataDir: resolve(flags.data),
          scoresDir: flags.scores === undefined ? undefined : resolve(flags.scores),
          dotsAsUnderscores: flags.dotsAsUnderscores,
        });
        io.stdout(
          flags.json ? `${JSON.stringify(toJsonReport(scores), null, 2)}\n` : toTerminalReport(resultDir, scores),
        );
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        io.stderr(`error [${error.code}]: ${error.message}\n`);
        process.exitCode = 2;
      }
    });
  return bfcl;
}
