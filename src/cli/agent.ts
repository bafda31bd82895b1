/**
 * `agent "<query>" --model M [--config C]`: one query through the pipeline, exactly as the bench runs
 * it (the resolved configuration, the mock servers, the mock world's date), with its trace printed —
 * the debugging loop behind every benchmark number. A dataset item's query is also scored as the bench
 * scores it; `--json` prints the whole AgentResult.
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import { conversationGold } from "../bench/conversation/gold.ts";
import type { DatasetItem } from "../bench/dataset/types.ts";
import {
  type AgentQueryOptions,
  type AgentQueryOutcome,
  runAgentQuery,
  UnknownItemError,
} from "../bench/run/agent-query.ts";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { type AgentFile, agentFileRegistry, readAgentFile } from "../config/agent-file.ts";
import { OnsetlabError } from "../errors.ts";
import { isSimulatedProvenance } from "../models/provenance.ts";
import { defaultCacheDir } from "../models/request-cache.ts";
import { STANDIN_LABEL } from "../report/provenance.ts";
import { runChat } from "./agent-chat.ts";
import { parseSeed } from "./bench.ts";
import { FlagError, parsePositiveInt, parseTransport, REGISTRY_FLAG, repeated } from "./flags.ts";
import { ttyWidth } from "./table.ts";
import { formatTrace } from "./trace-print.ts";

/** The query ran, but the pipeline ended in error (a model failure, the time limit): exit 1. */
export class AgentRunError extends OnsetlabError {}

export const DEFAULT_AGENT_CONFIG_NAME = "onsetlab";

export interface AgentFlags {
  model?: string;
  config: string;
  item?: string;
  seed: string;
  transport: string;
  dataset?: string[];
  models?: string;
  registry?: string[];
  timeout?: string;
  agentFile?: string;
  agent?: string;
  files?: string[];
  dryRun?: boolean;
  verbose?: boolean;
  json?: boolean;
  /** `--no-cache` makes it false. */
  cache: boolean;
  chat?: boolean;
  continue?: string;
  trace?: boolean;
  results?: string;
}

export function registerAgentCommand(program: Command): void {
  program
    .command("agent")
    .description("run one query through the pipeline against the mock servers and print its trace")
    .argument("[query]", 'the request, e.g. "List open issues in acme/webapp" (or give --item)')
    .option("--model <name>", "a models.yaml entry, sim:<profile>, or any Ollama model")
    .option("--config <name>", "a configuration from models.yaml", DEFAULT_AGENT_CONFIG_NAME)
    .option("--item <id>", "run a dataset item's query (e.g. gh-014) instead of giving one")
    .option("--seed <n>", "seed of the simulator (a bench run's first repeat uses the same)", "1")
    .option("--transport <kind>", "stdio | memory", "memory")
    .option("--dataset <paths...>", "dataset files the simulator and the scorer read (default: datasets/*.jsonl)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option(REGISTRY_FLAG.flags, REGISTRY_FLAG.description, repeated)
    .option("--timeout <seconds>", "time limit of the query")
    .option("--agent-file <file>", "run an exported agent file: its model, configuration and servers (pnpm export)")
    .option("--agent <file>", "an agent definition (agents/<name>.md): its prompt drives its protocol")
    .option("--files <paths...>", "files injected into the agent definition's prompt (put the query first)")
    .option("--dry-run", "write tools answer with a preview of the call instead of running it")
    .option("--verbose", "also print every model call's prompt and raw output")
    .option("--json", "print the whole AgentResult as JSON")
    .option("--no-cache", "send every model request to the server (default: answer repeats from the request cache)")
    .option("--chat", "a conversation: one turn per line of stdin (Ctrl-D ends it), stored to be continued")
    .option("--continue <id>", "the query is the next turn of this stored conversation (--chat or POST /run)")
    .option("--trace", "with --chat: print each turn's trace, not only its answer")
    .option("--results <dir>", "where conversations are stored (default results/, or ONSETLAB_RESULTS_DIR)")
    .action(async (query: string | undefined, rawFlags: AgentFlags, command: Command) => {
      const { flags, agentFile } = withAgentFile(rawFlags, command);
      if (flags.agent !== undefined && command.getOptionValueSource("config") === "cli") {
        throw new FlagError("BAD_FLAG", "--agent makes the configuration: leave out --config");
      }
      if (flags.chat || flags.continue !== undefined) {
        await runChat(query, flags, command, (turn) => queryOptions(flags, agentFile, turn));
        return;
      }
      if (!flags.model) {
        throw new FlagError(
          "BAD_FLAG",
          "--model is required, e.g. --model sim:slm-3b (no weights needed) or --model qwen2.5:3b",
        );
      }
      if ((query === undefined || query.trim() === "") === (flags.item === undefined)) {
        throw new FlagError("BAD_FLAG", 'give a query ("…") or --item ID, exactly one of them');
      }
      const controller = new AbortController();
      const stop = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", stop);
      let outcome: AgentQueryOutcome;
      try {
        outcome = await runAgentQuery(
          queryOptions(flags, agentFile, {
            ...(query === undefined ? {} : { query }),
            ...(flags.item === undefined ? {} : { itemId: flags.item }),
            model: flags.model,
            signal: controller.signal,
          }),
        );
      } catch (error) {
        if (error instanceof UnknownItemError)
          throw new FlagError("BAD_FLAG", `--item ${flags.item}: ${error.message}`);
        throw error;
      } finally {
        process.off("SIGINT", stop);
      }
      const { result, entry } = outcome;
      const redactor = harnessRedactor(flags.models, flags.registry);
      if (outcome.closeItems) process.stderr.write(redactor.text(simulatorHint(entry.name, outcome.closeItems)));
      process.stdout.write(redactor.text(flags.json ? `${JSON.stringify(result)}\n` : traceText(outcome, flags)));
      if (result.error) {
        throw new AgentRunError(
          "AGENT_RUN_ERROR",
          `the query ended in error in ${result.error.stage}: ${result.error.message}`,
          {
            context: { ...result.error },
          },
        );
      }
    });
}

/** The options every run of the command shares, from its flags, with the run's own (query, model, signal …). */
function queryOptions(
  flags: AgentFlags,
  agentFile: { agent: AgentFile; file: string } | undefined,
  run: Pick<AgentQueryOptions, "model"> & Partial<AgentQueryOptions>,
): AgentQueryOptions {
  return {
    configName: flags.config,
    seed: parseSeed(flags.seed),
    transport: parseTransport(flags.transport),
    ...(flags.dataset ? { dataset: flags.dataset } : {}),
    ...(flags.models ? { modelsFile: flags.models } : {}),
    ...(flags.registry ? { registries: flags.registry } : {}),
    ...(flags.timeout ? { timeoutS: parsePositiveInt("--timeout", flags.timeout) } : {}),
    ...(flags.cache ? { cacheDir: defaultCacheDir() } : {}),
    ...(agentFile ? { registry: agentFileRegistry(agentFile.agent, agentFile.file) } : {}),
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...(flags.agent ? { agent: resolve(flags.agent) } : {}),
    ...(flags.files ? { files: flags.files.map((file) => resolve(file)) } : {}),
    turnGold: conversationGold,
    ...run,
  };
}

/** A run's trace as the terminal shows it, with the note on whose answers these are. */
export function traceText(outcome: AgentQueryOutcome, flags: Pick<AgentFlags, "config" | "verbose">): string {
  const { result, entry, item, score, provenance } = outcome;
  const simulated = isSimulatedProvenance(provenance);
  return formatTrace(result, {
    model: entry.name,
    modelNote: provenance.kind === "stand-in" ? STANDIN_NOTE : simulated ? simulationNote(item) : undefined,
    configName: result.config.definition?.name ?? flags.config,
    simulated,
    verbose: flags.verbose,
    score,
    width: ttyWidth(),
  });
}

/**
 * `--agent-file F`: the file is the models file (models-yaml.ts reads agent files) and gives the model,
 * the configuration and the servers; its `dry_run` adds `--dry-run`.
 */
function withAgentFile(
  flags: AgentFlags,
  command: Command,
): { flags: AgentFlags; agentFile?: { agent: AgentFile; file: string } } {
  if (!flags.agentFile) return { flags };
  const clash = (["model", "config", "models", "agent"] as const).find(
    (flag) => command.getOptionValueSource(flag) === "cli",
  );
  if (clash) throw new FlagError("BAD_FLAG", `--agent-file gives the model and configuration: leave out --${clash}`);
  const file = resolve(flags.agentFile);
  const agent = readAgentFile(file);
  return {
    flags: {
      ...flags,
      model: agent.model.name,
      config: agent.config,
      models: file,
      dryRun: flags.dryRun || agent.dry_run,
    },
    agentFile: { agent, file },
  };
}

const STANDIN_NOTE = `${STANDIN_LABEL}: the server is the stand-in, which answers from the simulator`;

function simulationNote(item: DatasetItem | undefined): string {
  return item
    ? `simulated: answers from the gold labels of dataset item ${item.id}`
    : "simulated: the simulator answers dataset queries only, and this is no dataset item's";
}

/** Why a simulated answer to a free query says nothing useful, and what to run instead. */
function simulatorHint(model: string, close: readonly DatasetItem[]): string {
  const lines = [
    `note: ${model} answers dataset queries only (from their gold labels); this query is no dataset item's.`,
    ...(close.length > 0
      ? ["Closest dataset queries (by shared words):", ...close.map((item) => `  --item ${item.id}  ${item.query}`)]
      : []),
    "Run one with --item ID, or ask a real model (e.g. --model qwen2.5:3b).",
  ];
  return `${lines.join("\n")}\n`;
}
