/**
 * `export --model M --config C --format config|docker|docker-vllm|script --out DIR [--registry R]
 * [--from-run RUN] [--hf-id ID] [--dry-run] [--force] [--json]`: a benchmarked configuration out of the
 * harness as a runnable agent (src/export/). Prints the files written; `--json` with `config` writes and
 * prints agent.json.
 */

import { join, resolve } from "node:path";
import type { Command } from "commander";
import { resultsRoot } from "../bench/run/store.ts";
import { formatAgentFile } from "../config/agent-file.ts";
import { exportAgent, parseFormat } from "../export/export.ts";
import { FlagError } from "./flags.ts";

interface ExportFlags {
  model?: string;
  config?: string;
  format?: string;
  out?: string;
  registry?: string;
  models?: string;
  fromRun?: string;
  hfId?: string;
  dryRun?: boolean;
  force?: boolean;
  json?: boolean;
}

export function registerExportCommand(program: Command): void {
  program
    .command("export")
    .description("export a model × configuration as an agent file, a bundled script, or a Docker deployment")
    .option("--model <name>", "the model: a models.yaml entry or any Ollama model (e.g. qwen2.5:3b)")
    .option("--config <name>", "the configuration from models.yaml (e.g. onsetlab-plus)")
    .option("--format <format>", "config | script | docker | docker-vllm")
    .option("--out <dir>", "the folder to write (must be empty, unless --force)")
    .option("--registry <file>", "the servers' registry.json (default: the mock servers)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--from-run <run>", "record the run (id or folder) the configuration was chosen from, with its scores")
    .option("--hf-id <id>", "docker-vllm: the Hugging Face id of a model the table does not know")
    .option("--dry-run", "the exported agent previews write tools instead of running them")
    .option("--force", "write into a folder that is not empty")
    .option("--json", "config: write agent.json instead of agent.yaml, and print it")
    .action(async (flags: ExportFlags) => {
      const format = parseFormat(flags.format);
      for (const flag of ["model", "config", "out"] as const) {
        if (!flags[flag])
          throw new FlagError("BAD_FLAG", `--${flag} is required (export --model M --config C --format F --out DIR)`);
      }
      const outcome = await exportAgent({
        format,
        model: flags.model!,
        config: flags.config!,
        out: flags.out!,
        ...(flags.registry ? { registry: resolve(flags.registry) } : {}),
        ...(flags.models ? { modelsFile: flags.models } : {}),
        ...(flags.fromRun ? { fromRun: { run: flags.fromRun, resultsRoot: resultsRoot() } } : {}),
        ...(flags.hfId ? { hfId: flags.hfId } : {}),
        dryRun: flags.dryRun === true,
        force: flags.force === true,
        json: flags.json === true,
      });
      if (flags.json && format === "config") {
        process.stdout.write(formatAgentFile(outcome.agent, "json"));
        return;
      }
      process.stdout.write(
        `exported ${outcome.agent.model.name} × ${outcome.agent.config} as ${format} → ${outcome.dir}/: ${outcome.files.join(", ")}\n` +
          `run it: ${runHint(format, outcome.dir, outcome.files)}\n`,
      );
    });
}

/** How to run what an export wrote, as one command line. */
export function runHint(format: string, dir: string, files: readonly string[]): string {
  if (format === "script") return `node ${join(dir, "agent.mjs")} "your query" (or --serve)`;
  if (format === "config") {
    const file = files.find((name) => name.startsWith("agent.")) ?? "agent.yaml";
    return `pnpm agent --agent-file ${join(dir, file)} "your query"`;
  }
  return `cd ${dir} && docker compose up -d --build (its README.md: the three commands)`;
}
