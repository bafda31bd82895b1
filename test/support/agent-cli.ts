/** `pnpm agent …` in a child process, its stdin given: exit status, stdout and stderr. */
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../../src/paths.ts";

export function agent(args: readonly string[], input = ""): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "agent", ...args], {
    cwd: REPO_ROOT,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
