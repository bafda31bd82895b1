#!/usr/bin/env node
import { reportError } from "./exit.ts";
import { buildProgram } from "./program.ts";

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
