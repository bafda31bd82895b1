/**
 * CPU-bound tool work (SQL, the JavaScript sandbox) runs in worker threads that can be stopped: a job that
 * passes its time budget, or a worker that passes its memory limits, is terminated and a fresh worker takes
 * the next job. So a synchronous loop in a tool never blocks the thread that serves MCP (in-process: the
 * bench itself), and a tool's memory is given back when its worker goes.
 *
 * Host side: `BoundedWorkers`. Worker side: `serveJobs` in the worker module (`<server>/<name>.worker.ts`,
 * bundled to dist/mock-servers/<name>.worker.mjs by scripts/build.ts).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread, parentPort, type ResourceLimits, type Worker, workerData } from "node:worker_threads";
import { REPO_ROOT } from "../../src/paths.ts";
import { startModuleWorker } from "../../src/worker-start.ts";
import { ToolBudgetError, ToolError } from "./errors.ts";

/** What a worker answers a job with. `recycle`: the worker's state may be damaged (a wasm abort), replace it. */
type JobReply =
  | { id: number; ok: true; value: unknown; recycle?: boolean }
  | { id: number; ok: false; error: { toolCode?: string; message: string }; recycle?: boolean };

export interface BoundedWorkersOptions {
  /** The worker module under mock-servers/, without extension, e.g. "lab/sql.worker". */
  module: string;
  resourceLimits: ResourceLimits;
  /** Workers running at once; further jobs wait for one. */
  maxWorkers: number;
}

const BOUNDED_WORKER = "onsetlab-bounded-tool";

// A bounded tool's worker prints nothing: what it wrote would reach the server's stdout, which over stdio is the
// JSON-RPC channel (what a wasm abort prints is in the error anyway). Piping the output instead would keep
// every idle worker's process alive.
if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === BOUNDED_WORKER) {
  for (const stream of [process.stdout, process.stderr]) stream.write = (() => true) as typeof stream.write;
}

/** What a worker posts once its module has loaded (wasm compiled, fixtures read). */
const WORKER_READY = "ready";
/** Loading a worker takes well under a second; a loaded machine running tests from sources, a few. */
const WORKER_START_LIMIT_MS = 30_000;

interface Job {
  input: unknown;
  budgetMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A module's worker URL: its source from the sources, its bundle from a build. */
function workerUrl(module: string): URL {
  if (import.meta.url.endsWith(".ts")) return new URL(`../${module}.ts`, import.meta.url);
  const name = module.slice(module.lastIndexOf("/") + 1);
  return pathToFileURL(join(REPO_ROOT, "dist", "mock-servers", `${name}.mjs`));
}

export class BoundedWorkers {
  private readonly idle: Worker[] = [];
  private running = 0;
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly options: BoundedWorkersOptions) {}

  /** Runs a job on a worker; rejects with ToolBudgetError past `budgetMs` or the memory limits, ToolError for a domain failure. */
  run<T>(input: unknown, budgetMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ input, budgetMs, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.running < this.options.maxWorkers) {
      const job = this.queue.shift()!;
      this.running += 1;
      const idle = this.idle.pop();
      (idle ? Promise.resolve(idle) : this.spawn()).then(
        (worker) => this.dispatch(job, worker),
        (error: Error) => {
          this.running -= 1;
          job.reject(error);
          this.pump();
        },
      );
    }
  }

  /** A new worker, once its module has loaded (a job's budget counts from then: start-up is not the tool's time). */
  private spawn(): Promise<Worker> {
    const worker = startModuleWorker(workerUrl(this.options.module), {
      resourceLimits: this.options.resourceLimits,
      workerData: { kind: BOUNDED_WORKER },
    });
    // an idle worker never keeps a process alive; a running job's timer does
    worker.unref();
    return new Promise<Worker>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        worker.off("message", onReady);
        worker.off("error", settle);
        worker.off("exit", onExit);
        if (!error) return resolve(worker);
        void worker.terminate();
        reject(new ToolBudgetError("crash", `the tool's worker did not start: ${error.message}`, { cause: error }));
      };
      const onReady = (message: unknown) => {
        if (message === WORKER_READY) settle();
      };
      const onExit = (code: number) => settle(new Error(`it exited (code ${code})`));
      const timer = setTimeout(
        () => settle(new Error(`not ready after ${WORKER_START_LIMIT_MS} ms`)),
        WORKER_START_LIMIT_MS,
      );
      worker.on("message", onReady);
      worker.on("error", settle);
      worker.on("exit", onExit);
    });
  }

  private dispatch(job: Job, worker: Worker): void {
    const id = this.nextId++;
    let done = false;
    const finish = (keep: boolean, settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (keep) this.idle.push(worker);
      else void worker.terminate();
      this.running -= 1;
      settle();
      this.pump();
    };
    const timer = setTimeout(
      () =>
        finish(false, () =>
          job.reject(
            new ToolBudgetError("time", `the tool ran past its time limit of ${job.budgetMs} ms and was stopped`),
          ),
        ),
      job.budgetMs,
    );
    const onMessage = (reply: JobReply) => {
      if (reply.id !== id) return;
      finish(!reply.recycle, () => {
        if (reply.ok) job.resolve(reply.value);
        else if (reply.error.toolCode) job.reject(new ToolError(reply.error.toolCode, reply.error.message));
        else job.reject(new ToolBudgetError("crash", reply.error.message));
      });
    };
    const onError = (error: Error & { code?: string }) =>
      finish(false, () =>
        job.reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ToolBudgetError("memory", "the tool ran out of its memory limit and was stopped", { cause: error })
            : new ToolBudgetError("crash", `the tool's worker failed: ${error.message}`, { cause: error }),
        ),
      );
    const onExit = (code: number) =>
      finish(false, () => job.reject(new ToolBudgetError("crash", `the tool's worker exited (code ${code})`)));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ id, input: job.input });
  }
}

/**
 * The worker's side: answers each job with `handle`'s value. A ToolError goes back as a domain failure; any
 * other error as a crash (deterministic: the same input fails the same way). `recycle(error)` says whether the
 * worker must be replaced after this job (its wasm module aborted, its heap is near its limit …).
 */
export function serveJobs(
  handle: (input: never) => unknown,
  recycle: (error: unknown, value: unknown) => boolean = () => false,
): void {
  const port = parentPort;
  if (!port) throw new Error("serveJobs runs in a worker thread");
  port.on("message", async ({ id, input }: { id: number; input: never }) => {
    try {
      const value = await handle(input);
      port.postMessage({ id, ok: true, value, recycle: recycle(undefined, value) } satisfies JobReply);
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      port.postMessage({
        id,
        ok: false,
        error:
          error instanceof ToolError
            ? { toolCode: error.code, message: error.message }
            : { message: message.slice(0, 2000) },
        recycle: recycle(error, undefined),
      } satisfies JobReply);
    }
  });
  port.postMessage(WORKER_READY);
}
