/**
 * The CLI run in this process: the same commander program bin.ts runs, its stdout and stderr captured and
 * its error mapped to an exit code exactly as bin.ts maps it. Much quicker than a child process per case;
 * calls must not overlap (the capture replaces process.stdout/stderr.write while one runs).
 */
import { vi } from "vitest";
import { reportError } from "../../src/cli/exit.ts";
import { buildProgram } from "../../src/cli/program.ts";
import type { CliOutcome } from "./bench-run.ts";

export async function runInProcess(args: readonly string[]): Promise<CliOutcome> {
  let stdout = "";
  let stderr = "";
  const capture = (append: (text: string) => void) => (chunk: string | Uint8Array) => {
    append(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture((text) => (stdout += text)) as never);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(capture((text) => (stderr += text)) as never);
  let code = 0;
  try {
    await buildProgram().parseAsync(args, { from: "user" });
  } catch (error) {
    code = reportError(error, (line) => {
      stderr += line;
    });
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { code, stdout, stderr };
}
