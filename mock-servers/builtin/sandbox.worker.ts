/**
 * The JavaScript sandbox's worker (kit/bounded.ts). After a wasm abort (QuickJS asserts on some deep
 * nestings) the module is dead, and after a run that grew the wasm heap the memory is never given back:
 * either way the worker is replaced before the next run.
 */
import { serveJobs } from "../kit/bounded.ts";
import { runInSandbox, sandboxMemoryBytes } from "./sandbox.ts";

const RECYCLE_ABOVE_BYTES = 48 * 1024 * 1024;
let memoryBytes = 0;

serveJobs(
  async (job: { code: string; timeoutMs: number; nowMs: number }) => {
    try {
      return await runInSandbox(job.code, { timeoutMs: job.timeoutMs, now: new Date(job.nowMs) });
    } finally {
      memoryBytes = await sandboxMemoryBytes().catch(() => Number.POSITIVE_INFINITY);
    }
  },
  (error) => error !== undefined || memoryBytes > RECYCLE_ABOVE_BYTES,
);
