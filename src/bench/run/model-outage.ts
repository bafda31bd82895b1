/**
 * Stops a run when its model server is gone (nothing answers at the host, or the model is not on it)
 * or its cassette does not hold the run being replayed: every later query would fail the same way,
 * and such records measure nothing. The first such failure aborts the run's signal; the runner throws
 * it once the workers have stopped.
 */
import { OnsetlabError } from "../../errors.ts";
import { CassetteMissError, ModelNotFoundError, ProviderUnreachableError } from "../../models/errors.ts";
import type { ModelProvider } from "../../models/types.ts";

type Outage = ProviderUnreachableError | ModelNotFoundError | CassetteMissError;

/** The run stopped because its model server could not serve it; the message says how to fix it. */
export class ModelOutageError extends OnsetlabError {}

export class ModelOutageWatch {
  private readonly controller = new AbortController();
  private first: Outage | undefined;

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
        if (
          error instanceof ProviderUnreachableError ||
          error instanceof ModelNotFoundError ||
          error instanceof CassetteMissError
        ) {
          this.first ??= error;
          this.controller.abort(error);
        }
        throw error;
      });
    return {
      id: provider.id,
      complete: (request) => observe(provider.complete(request)),
      chat: (request) => observe(provider.chat(request)),
    };
  }

  /** The error a stopped run ends with: the provider's own message, and how to continue when records exist. */
  stoppedRun(runId: string, recordsKept: number): ModelOutageError | undefined {
    if (!this.first) return undefined;
    const resume = recordsKept > 0 ? `; then continue the run with --resume ${runId}` : "";
    return new ModelOutageError("MODEL_OUTAGE", `${this.first.message}${resume}`, {
      context: { runId, recordsKept },
      cause: this.first,
    });
  }
}
