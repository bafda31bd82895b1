/**
 * A share of a run's tasks in a worker thread: the simulator and the in-memory servers are pure CPU, so on
 * a machine with several cores a run goes about as many times faster as it has threads. Each worker runs
 * runShare with servers and providers of its own and posts every finished task's lines back; the main
 * thread alone writes the files, so records stay whole lines and a killed run loses nothing it finished.
 */
import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { OnsetlabError } from "../../errors.ts";
import { startModuleWorker } from "../../worker-start.ts";
import type { TaskFailure } from "./execute.ts";
import type { Task } from "./matrix.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { type FinishedTask, runShare, type ShareHooks, type ShareSpec } from "./worker-share.ts";

/** A worker thread died or failed outside any one task: its unfinished tasks get no record (a resume runs them). */
export class ThreadError extends OnsetlabError {}

interface ThreadInput {
  kind: "onsetlab-share";
  spec: ShareSpec;
  tasks: Task[];
}

type FromThread =
  | { type: "finished"; task: FinishedTask }
  | { type: "done"; failures: TaskFailure[] }
  | { type: "failed"; message: string };

/** Runs `tasks` in a new worker thread; resolves with the tasks the harness could not finish, like runShare. */
export function runShareInThread(
  spec: ShareSpec,
  tasks: readonly Task[],
  hooks: Pick<ShareHooks, "signal" | "onFinished">,
): Promise<TaskFailure[]> {
  const input: ThreadInput = { kind: "onsetlab-share", spec, tasks: [...tasks] };
  const worker = startWorker(input);
  const stop = () => worker.postMessage("stop");
  hooks.signal.addEventListener("abort", stop, { once: true });
  return new Promise<TaskFailure[]>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      hooks.signal.removeEventListener("abort", stop);
      finish();
    };
    worker.on("message", (message: FromThread) => {
      if (message.type === "finished") hooks.onFinished(message.task);
      else if (message.type === "done") settle(() => resolve(message.failures));
      else settle(() => reject(new ThreadError("THREAD_FAILED", `a worker thread failed: ${message.message}`)));
    });
    worker.on("error", (error) =>
      settle(() =>
        reject(new ThreadError("THREAD_FAILED", `a worker thread failed: ${error.message}`, { cause: error })),
      ),
    );
    worker.on("exit", (code) =>
      settle(() =>
        reject(new ThreadError("THREAD_EXITED", `a worker thread exited (code ${code}) before its tasks were done`)),
      ),
    );
  });
}

/** A worker running this module (its own chunk in a bundled build: scripts/build.ts). */
function startWorker(input: ThreadInput): Worker {
  return startModuleWorker(new URL(import.meta.url), { workerData: input });
}

/** The worker's side: run the share, post each finished task, then the failures. */
async function threadMain(input: ThreadInput): Promise<void> {
  const port = parentPort!;
  const controller = new AbortController();
  port.on("message", (message) => {
    if (message === "stop") controller.abort(new Error("the run was stopped"));
  });
  const outage = new ModelOutageWatch();
  try {
    const failures = await runShare(input.spec, input.tasks, {
      signal: controller.signal,
      outage,
      // the lines' buffers move to the main thread, not copied
      onFinished: (task) =>
        port.postMessage({ type: "finished", task } satisfies FromThread, [
          task.recordLine.buffer,
          task.spanLines.buffer,
        ]),
    });
    // threads run the simulator only (bench.ts), which has no outage; should one happen, say so
    const message = outage.outage?.message;
    port.postMessage(message ? ({ type: "failed", message } satisfies FromThread) : { type: "done", failures });
  } catch (error) {
    port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  } finally {
    port.close();
  }
}

if (!isMainThread && (workerData as ThreadInput | undefined)?.kind === "onsetlab-share") {
  await threadMain(workerData as ThreadInput);
}
