/**
 * `standin [--port N] [--profile P] [--pace TOKENS_PER_SEC] [--dataset PATH…] [--seed N]`: the stand-in
 * Ollama server (mock-servers/ollama) on 127.0.0.1, answering every model name from a simulator profile
 * that is handed the dataset's gold labels. Runs until interrupted.
 */

import type { Command } from "commander";
import { startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../bench/dataset/load.ts";
import { createSimProvider } from "../models/sim/index.ts";
import { FlagError } from "./flags.ts";

interface StandinFlags {
  port: string;
  profile: string;
  pace?: string;
  dataset?: string[];
  seed?: string;
}

export function registerStandinCommand(program: Command): void {
  program
    .command("standin")
    .description("a stand-in Ollama server (Ollama and OpenAI APIs) answering from the simulator — simulated numbers")
    .option("--port <n>", "port on 127.0.0.1 (0: any free port)", "11434")
    .option("--profile <profile>", "simulator profile: sim:oracle | sim:slm-3b | sim:slm-7b | sim:chaos", "sim:slm-3b")
    .option("--pace <tokens-per-sec>", "imitate a model generating this many tokens per second")
    .option("--dataset <path...>", "dataset files or folders with the gold labels (default datasets/)")
    .option("--seed <n>", "simulator seed")
    .action(async (flags: StandinFlags) => {
      const port = parseWholeNumber("--port", flags.port, 0, 65_535);
      const pace = flags.pace === undefined ? undefined : parsePace(flags.pace);
      const seed = flags.seed === undefined ? undefined : parseWholeNumber("--seed", flags.seed, 0, 2 ** 32 - 1);
      const profile = flags.profile.replace(/^sim:/, "");
      const gold = loadDataset(flags.dataset).map((loaded) => loaded.item);
      const provider = createSimProvider({ profile, gold, seed });
      const standin = await startStandin({ provider, port, pace });
      process.stdout.write(
        `stand-in Ollama at ${standin.url} (OpenAI API at ${standin.url}/v1): every model is sim:${profile} — ` +
          `simulated, ${gold.length} gold items${pace ? `, paced at ${pace} tokens/s` : ""}. Ctrl-C stops it.\n`,
      );
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await standin.close();
    });
}

function parseWholeNumber(flag: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new FlagError("BAD_FLAG", `${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

function parsePace(value: string): number {
  const pace = Number(value);
  if (!Number.isFinite(pace) || pace <= 0) {
    throw new FlagError("BAD_FLAG", `--pace must be a number of tokens per second > 0, not "${value}"`);
  }
  return pace;
}
