#!/usr/bin/env node
import { logRedactor } from "../bench/run/secrets.ts";
import { reportError } from "./exit.ts";
import { buildProgram } from "./program.ts";

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  const redactor = logRedactor();
  process.exitCode = reportError(error, (line) => process.stderr.write(redactor.text(line)));
}
