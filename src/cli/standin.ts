/**
 * `standin [--port N] [--profile P] [--pace TOKENS_PER_SEC] [--dataset PATH…] [--seed N] [--real] [behaviour
 * flags]`: the stand-in Ollama server (mock-servers/ollama) on 127.0.0.1, answering from a simulator
 * profile that is handed the dataset's gold labels. `--real` behaves like a stock Ollama (window
 * truncation, output cut, known models only, one request at a time); each behaviour has its own flag.
 * Runs until interrupted.
 */

import { readFileSync } from "node:fs";
import type { Command } from "commander";
import {
  STANDIN_TOKENIZERS,
  type StandinBehaviour,
  type StandinTokenizer,
} from "../../mock-servers/ollama/behaviour.ts";
import { type Rates, ratesOf } from "../../mock-servers/ollama/pacing.ts";
import { parseModelList, type ServedModel } from "../../mock-servers/ollama/served-models.ts";
import { startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../bench/dataset/load.ts";
import { createSimProvider } from "../models/sim/index.ts";
import { FlagError, parseChoice } from "./flags.ts";
import { ttyWidth } from "./table.ts";
import { factLines } from "./wrap.ts";

interface StandinFlags {
  port: string;
  profile: string;
  pace?: string;
  dataset?: string[];
  seed?: string;
  real?: boolean;
  truncate?: boolean;
  numCtx?: string;
  cutOutput?: boolean;
  models?: string;
  coldStartMs?: string;
  loadMs?: string;
  maxQueue?: string;
  parallel?: string;
  slots?: string;
  promptRate?: string;
  genRate?: string;
  timeScale?: string;
  tokenizer?: string;
  ignoreFormat?: boolean;
}

export function registerStandinCommand(program: Command): void {
  program
    .command("standin")
    .description("a stand-in Ollama server (Ollama and OpenAI APIs) answering from the simulator — simulated numbers")
    .option("--port <n>", "port on 127.0.0.1 (0: any free port)", "11434")
    .option("--profile <profile>", "simulator profile: sim:oracle | sim:slm-3b | sim:slm-7b | sim:chaos", "sim:slm-3b")
    .option("--pace <tokens-per-sec>", "imitate a model generating this many tokens per second (prompts at 10×)")
    .option("--prompt-rate <tokens-per-sec>", "prompt tokens evaluated per second (those not in the slot's cache)")
    .option("--gen-rate <tokens-per-sec>", "tokens generated per second")
    .option("--time-scale <factor>", "multiply every modelled time by this (0.1: ten times faster)")
    .option("--dataset <path...>", "dataset files or folders with the gold labels (default datasets/)")
    .option("--seed <n>", "simulator seed")
    .option("--real", "behave like a stock Ollama: every behaviour below on, at its defaults")
    .option("--truncate", "cut a prompt over the window from the front (real mode: on)")
    .option("--no-truncate", "never cut a prompt")
    .option("--num-ctx <n>", "the window when a request sets no num_ctx (default 4096)")
    .option("--cut-output", "cut the output at num_predict / max_tokens (real mode: on)")
    .option("--no-cut-output", "never cut the output")
    .option("--models <file>", "serve only the models of this JSON list (names or objects; real mode: 5 known models)")
    .option("--load-ms <n>", "a model that is not loaded takes this long to load (default 0)")
    .option("--cold-start-ms <n>", "the same as --load-ms")
    .option("--max-queue <n>", "requests waiting beyond this many get 503 (default: no limit)")
    .option(
      "--slots <n>",
      "requests one model serves at once, each slot with its prompt cache (real mode: 1; default: no limit)",
    )
    .option("--parallel <n>", "the same as --slots (OLLAMA_NUM_PARALLEL)")
    .option(
      "--tokenizer <kind>",
      "serve another server's tokenizer endpoints: vllm (/tokenize) | llamacpp (/tokenize, /apply-template) | none (Ollama's; default)",
    )
    .option(
      "--ignore-format",
      "read Ollama's format and the OpenAI response_format but answer freely, as a server without grammar support",
    )
    .action(async (flags: StandinFlags) => {
      const port = parseWholeNumber("--port", flags.port, 0, 65_535);
      const pace = parsePositive("--pace", flags.pace, TOKENS_PER_SECOND);
      const promptRate = parsePositive("--prompt-rate", flags.promptRate, TOKENS_PER_SECOND);
      const genRate = parsePositive("--gen-rate", flags.genRate, TOKENS_PER_SECOND);
      const timeScale = parsePositive("--time-scale", flags.timeScale, "a factor");
      const seed = flags.seed === undefined ? undefined : parseWholeNumber("--seed", flags.seed, 0, 2 ** 32 - 1);
      const behaviour = behaviourOf(flags);
      const profile = flags.profile.replace(/^sim:/, "");
      const gold = loadDataset(flags.dataset).map((loaded) => loaded.item);
      const provider = createSimProvider({ profile, gold, seed });
      const real = flags.real === true;
      const standin = await startStandin({
        provider,
        port,
        pace,
        promptRate,
        genRate,
        timeScale,
        real,
        behaviour,
      }).catch((error: unknown) => {
        throw portTaken(error, port) ?? error;
      });
      const mode = real ? "real mode (truncation, output cut, known models only)" : "lenient mode";
      const lines = [
        `stand-in Ollama at ${standin.url} (the OpenAI API under /v1)`,
        `${mode}: every model is sim:${profile} — simulated, ${gold.length} gold items${pacingText(ratesOf({ pace, promptRate, genRate, timeScale }))}`,
        ...tokenizerLines(behaviour.tokenizer, standin.url),
        `statistics at ${standin.url}/__standin/stats; Ctrl-C stops it`,
      ];
      process.stdout.write(`${lines.flatMap((line) => factLines("", line, ttyWidth())).join("\n")}\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await standin.close();
    });
}

function pacingText(rates: Rates | undefined): string {
  if (!rates) return "";
  const scale = rates.timeScale === 1 ? "" : `, times ×${rates.timeScale}`;
  return `, paced at ${rates.promptRate} prompt / ${rates.genRate} generated tokens/s${scale}`;
}

/** The behaviours the flags set; what they leave out comes from the mode's defaults. */
function behaviourOf(flags: StandinFlags): Partial<StandinBehaviour> {
  const number = (flag: string, value: string | undefined, min: number) =>
    value === undefined ? undefined : parseWholeNumber(flag, value, min);
  return {
    truncate: flags.truncate,
    defaultNumCtx: number("--num-ctx", flags.numCtx, 1),
    cutOutput: flags.cutOutput,
    coldStartMs: number("--load-ms", flags.loadMs, 0) ?? number("--cold-start-ms", flags.coldStartMs, 0),
    maxQueue: number("--max-queue", flags.maxQueue, 0),
    parallel: number("--slots", flags.slots, 1) ?? number("--parallel", flags.parallel, 1),
    tokenizer:
      flags.tokenizer === undefined ? undefined : parseChoice("--tokenizer", flags.tokenizer, STANDIN_TOKENIZERS),
    ignoreFormat: flags.ignoreFormat,
    ...(flags.models === undefined ? {} : { knownModels: readModels(flags.models) }),
  };
}

function tokenizerLines(tokenizer: StandinTokenizer | undefined, url: string): string[] {
  if (tokenizer === undefined || tokenizer === "none") return [];
  return [
    `${tokenizer === "vllm" ? "vLLM's" : "llama.cpp's"} tokenizer endpoints at ${url}/tokenize${tokenizer === "llamacpp" ? " and /apply-template" : ""}`,
  ];
}

function readModels(file: string): ServedModel[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new FlagError("BAD_FLAG", `--models ${file}: cannot read a JSON list (${(error as Error).message})`);
  }
  try {
    return parseModelList(json);
  } catch (error) {
    throw new FlagError(
      "BAD_FLAG",
      `--models ${file}: ${(error as Error).message} (expected a list of names or {name, tools?, thinking?, contextLength?, …})`,
    );
  }
}

function parseWholeNumber(flag: string, value: string, min: number, max?: number): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || (max !== undefined && number > max)) {
    const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new FlagError("BAD_FLAG", `${flag} must be a whole number ${range}, not "${value}"`);
  }
  return number;
}

const TOKENS_PER_SECOND = "a number of tokens per second";

/** A positive number of a flag (a rate, a factor); undefined when the flag is not given. */
function parsePositive(flag: string, value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new FlagError("BAD_FLAG", `${flag} must be ${what} > 0, not "${value}"`);
  }
  return number;
}

/** A port something else listens on (often Ollama itself, on 11434): a flag to change, said so. */
export function portTaken(error: unknown, port: number): FlagError | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== "EADDRINUSE") return undefined;
  return new FlagError(
    "PORT_TAKEN",
    `port ${port} is taken (Ollama itself, or another stand-in?): start the stand-in on another with --port N, ` +
      "and point the bench at it with OLLAMA_HOST=http://127.0.0.1:N",
    { cause: error },
  );
}
