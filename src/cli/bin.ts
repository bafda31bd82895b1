#!/usr/bin/env -S node --import tsx
import { Command } from "commander";
import { registerBenchCommand } from "./bench.ts";
import { registerBfclCommands } from "./bfcl.ts";
import { registerDatasetCommands } from "./dataset.ts";
import { reportError } from "./exit.ts";
import { registerMockCommands } from "./mock.ts";
import { registerPerfCommand } from "./perf.ts";
import { registerStandinCommand } from "./standin.ts";

export function buildProgram(): Command {
  const program = new Command("onsetlab")
    .description("OnsetLab Bench: benchmark small-model tool calling against deterministic MCP servers")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)");
  registerBenchCommand(program);
  registerBfclCommands(program);
  registerDatasetCommands(program);
  registerMockCommands(program);
  registerPerfCommand(program);
  registerStandinCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
