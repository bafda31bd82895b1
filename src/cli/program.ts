/** The `onsetlab` command with every subcommand: bin.ts runs it, tests run it in process. */
import { Command } from "commander";
import { registerAgentCommand } from "./agent.ts";
import { registerBenchCommand } from "./bench.ts";
import { registerBfclCommands } from "./bfcl.ts";
import { registerCacheCommands } from "./cache.ts";
import { registerDatasetCommands } from "./dataset.ts";
import { registerDecideCommand } from "./decide.ts";
import { registerExportCommand } from "./export.ts";
import { registerGateCommand } from "./gate.ts";
import { registerMcpCommand } from "./mcp.ts";
import { registerMockCommands } from "./mock.ts";
import { registerPerfCommand } from "./perf.ts";
import { registerReportCommand } from "./report.ts";
import { registerResultsCommands } from "./results.ts";
import { registerScaffoldCommands } from "./scaffold.ts";
import { registerStandinCommand } from "./standin.ts";
import { registerViewCommand } from "./view.ts";

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
  registerDecideCommand(program);
  registerExportCommand(program);
  registerGateCommand(program);
  registerMcpCommand(program);
  registerMockCommands(program);
  registerPerfCommand(program);
  registerReportCommand(program);
  registerResultsCommands(program);
  registerScaffoldCommands(program);
  registerStandinCommand(program);
  registerViewCommand(program);
  return program;
}
