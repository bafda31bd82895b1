/**
 * code_runner's runs happen in a worker thread (kit/bounded.ts). QuickJS stops the guest at its own time limit;
 * the worker's budget, a second later, stops what QuickJS cannot (a long native call), and the worker's going
 * gives the host back the wasm memory a run took.
 */
import { BoundedWorkers } from "../kit/bounded.ts";
import type { SandboxRun } from "./sandbox.ts";

/** Beyond the guest's own time limit: worker start-up and QuickJS's interrupt granularity. */
const HOST_MARGIN_MS = 2000;

const workers = new BoundedWorkers({
  module: "builtin/sandbox.worker",
  resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
  maxWorkers: 4,
});

export function runSandboxBounded(code: string, timeoutMs: number, now: Date): Promise<SandboxRun> {
  return workers.run<SandboxRun>({ code, timeoutMs, nowMs: now.getTime() }, timeoutMs + HOST_MARGIN_MS);
}
