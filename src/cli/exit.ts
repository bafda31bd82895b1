import { CommanderError } from "commander";
import { InputError } from "../errors.ts";

/** Exit codes (README): 0 ok, 1 a run error, 2 bad usage or bad input. */
export const EXIT = { ok: 0, runError: 1, badInput: 2 } as const;

/** One clear line on stderr for an error, and the exit code it maps to. */
export function reportError(
  error: unknown,
  write: (line: string) => void = (line) => process.stderr.write(line),
): number {
  if (error instanceof CommanderError) {
    // commander has already printed its own message
    return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  }
  if (error instanceof InputError) {
    write(`error: ${error.message}\n`);
    return EXIT.badInput;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`error: ${message}\n`);
  if (process.env.ONSETLAB_DEBUG && error instanceof Error && error.stack) write(`${error.stack}\n`);
  return EXIT.runError;
}
