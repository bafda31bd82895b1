/** The `onsetlab` command with every subcommand: bin.ts runs it, tests run it in process. */
import { Command } from "commander";
import { registerAgentCommand } from "./agent.ts";
import { registerBenchCommand } from "./bench.ts";
import { registerBfclCommands } from "./bfcl.ts";
import { registerCacheCommands } from "./cache.ts";
import { registerDatasetCommands } from "./dataset.ts";
import { registerGateCommand } from "./gate.ts";
import { registerMockCommands } from "./mock.ts";
import { registerPerfCommand } from "./perf.ts";
import { registerReportCommand } from "./report.ts";
import { registerResultsCommands } from "./results.ts";
import { registerStandinCommand } from "./standin.ts";

export function buildProgram(): Command {
  const program = new Command("onsetlab")
    .description("OnsetLab Bench: benchmark small-model tool calling against deterministic MCP servers")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)");
  registerAgentCommand(program);
  registerBenchCommand(program);
  registerBfclCommands(program);
  registerCacheCommands(program);
  registerDatasetCommands(program);
  registerGateCommand(program);
  registerMockCommands(program);
  registerPerfCommand(program);
  registerReportCommand(program);
  registerResultsCommands(program);
  registerStandinCommand(program);
  return program;
}
