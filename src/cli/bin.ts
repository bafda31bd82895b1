#!/usr/bin/env -S node --import tsx
import { Command } from "commander";
import { registerBfclCommands } from "./bfcl.ts";
import { registerDatasetCommands } from "./dataset.ts";
import { reportError } from "./exit.ts";
import { registerMockCommands } from "./mock.ts";
import { registerPerfCommand } from "./perf.ts";

export function buildProgram(): Command {
  const program = new Command("onsetlab")
    .description("OnsetLab Bench: benchmark small-model tool calling against deterministic MCP servers")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)");
  registerBfclCommands(program);
  registerDatasetCommands(program);
  registerMockCommands(program);
  registerPerfCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
