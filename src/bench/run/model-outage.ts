/**
 * Stops a run when its model server cannot serve it — nothing answers at the host (refused, DNS, TLS),
 * the model is not on it, it refuses the requests themselves (400 bad request, 401/403, no tools
 * capability) — or its cassette does not hold the run being replayed: every later query would fail
 * the same way, and such records measure nothing. The first such failure aborts the run's signal; the
 * runner throws it once the workers have stopped. (Transient failures — 503, 429, a reset connection —
 * are retried by the provider; a server error that outlasts them makes its item invalid instead.)
 */
import { OnsetlabError } from "../../errors.ts";
import {
  CassetteMissError,
  ModelNotFoundError,
  ProviderHttpError,
  ProviderUnreachableError,
  ToolsUnsupportedError,
} from "../../models/errors.ts";
import { isTransient } from "../../models/http.ts";
import type { ModelProvider } from "../../models/types.ts";

type Outage = Error;

/** A failure that every later call would meet too. */
export function isOutage(error: unknown): error is Outage {
  if (
    error instanceof ProviderUnreachableError ||
    error instanceof ModelNotFoundError ||
    error instanceof ToolsUnsupportedError ||
    error instanceof CassetteMissError
  ) {
    return true;
  }
  // the request itself is refused (bad request, authentication): 4xx, except "try again later" (429)
  return (
    error instanceof ProviderHttpError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    !isTransient(error)
  );
}

/** The run stopped because its model server could not serve it; the message says how to fix it. */
export class ModelOutageError extends OnsetlabError {}

export class ModelOutageWatch {
  private readonly controller = new AbortController();
  private first: Outage | undefined;
  /** The model whose server failed first, as the stop line names it. */
  private model = "";

  /** Aborted at the first outage. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get outage(): Outage | undefined {
    return this.first;
  }

  /** The provider, reporting its outages to this watch (its answers and other failures pass unchanged). */
  watch(provider: ModelProvider): ModelProvider {
    const observe = <T>(call: Promise<T>): Promise<T> =>
      call.catch((error: unknown) => {
        if (isOutage(error)) {
          if (!this.first) {
            this.first = error;
            this.model = provider.id;
          }
          this.controller.abort(error);
        }
        throw error;
      });
    return {
      id: provider.id,
      complete: (request) => observe(provider.complete(request)),
      chat: (request) => observe(provider.chat(request)),
      ...(provider.describe ? { describe: () => observe(provider.describe!()) } : {}),
      ...(provider.warmUp ? { warmUp: () => observe(provider.warmUp!()) } : {}),
    };
  }

  /**
   * The error a stopped run ends with: one line naming the model, the provider's own message (host and
   * cause), and how to continue when records exist.
   */
  stoppedRun(runId: string, recordsKept: number): ModelOutageError | undefined {
    if (!this.first) return undefined;
    const resume = recordsKept > 0 ? `; then continue the run with --resume ${runId}` : "";
    return new ModelOutageError("MODEL_OUTAGE", `model ${this.model}: ${this.first.message}${resume}`, {
      context: { runId, recordsKept, model: this.model },
      cause: this.first,
    });
  }
}
