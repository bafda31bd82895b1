#!/usr/bin/env -S node --import tsx
/**
 * `pnpm bfcl …`: the bfcl commands on their own. The full CLI (bin.ts) loads every command's modules —
 * the MCP SDK, the agent, the mock servers — which under tsx costs about a second before any work, most
 * of a `bfcl score` run; this entry loads only what scoring needs (uplift loads the agent on use).
 * `pnpm bfcl` bundles it with esbuild into dist/bfcl/ and runs that with plain node: tsx's loader alone
 * costs about 0.3 s more than the whole bundled start-up.
 */
import { Command } from "commander";
import { registerBfclCommands } from "./bfcl.ts";
import { reportError } from "./exit.ts";

const program = new Command("onsetlab")
  .description("OnsetLab Bench: the BFCL track")
  .exitOverride()
  .showHelpAfterError("(run with --help for usage)");
registerBfclCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
