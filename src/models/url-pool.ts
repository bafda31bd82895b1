/**
 * One model served at several base URLs (`base_urls:` in models.yaml: a lab with three GPUs, or Ollama
 * hosts behind a proxy). Each URL has a provider of its own and a concurrency limit; a call goes to the
 * least busy URL with a free slot (busy / limit, then list order), or waits for the first slot to free.
 * The answer names the URL that served it (`servedBy`), and the record keeps it.
 */

import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelFacts,
  ModelProvider,
  WarmUp,
} from "./types.ts";

export interface PoolMember {
  url: string;
  /** Calls this URL serves at once. */
  concurrency: number;
  provider: ModelProvider;
}

interface Slot extends PoolMember {
  busy: number;
}

export class UrlPoolProvider implements ModelProvider {
  readonly id: string;
  readonly describe?: () => Promise<ModelFacts>;
  readonly warmUp?: () => Promise<WarmUp>;
  private readonly slots: Slot[];
  /** Calls waiting for a free slot, first come first served. */
  private readonly waiting: (() => void)[] = [];

  constructor(members: readonly PoolMember[]) {
    this.slots = members.map((member) => ({ ...member, busy: 0 }));
    const first = this.slots[0]!.provider;
    this.id = first.id;
    // The same model on every URL: its facts are read from the first.
    if (first.describe) this.describe = () => first.describe!();
    if (first.warmUp) this.warmUp = () => this.warmAll();
  }

  complete(request: CompletionRequest): Promise<CompletionResponse> {
    return this.run((provider) => provider.complete(request));
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return this.run((provider) => provider.chat(request));
  }

  /** Calls in flight per URL (for tests and progress). */
  load(): Record<string, number> {
    return Object.fromEntries(this.slots.map((slot) => [slot.url, slot.busy]));
  }

  private async run<T extends CompletionResponse>(call: (provider: ModelProvider) => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    try {
      return { ...(await call(slot.provider)), servedBy: slot.url };
    } finally {
      slot.busy -= 1;
      this.waiting.shift()?.();
    }
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      const free = this.slots
        .filter((slot) => slot.busy < slot.concurrency)
        .sort((a, b) => a.busy / a.concurrency - b.busy / b.concurrency)[0];
      if (free) {
        free.busy += 1;
        return free;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Every server loads the model before the first measured call; the slowest load is the run's. */
  private async warmAll(): Promise<WarmUp> {
    const warmed = await Promise.all(this.slots.map((slot) => slot.provider.warmUp!()));
    return warmed.reduce((slowest, next) => (next.totalMs > slowest.totalMs ? next : slowest));
  }
}
