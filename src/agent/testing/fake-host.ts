/** A ToolHost with scripted handlers, for unit tests of the executor, runner and loops (no MCP underneath). */

import type {
  CallOptions,
  ToolCallResult,
  ToolDefinition,
  ToolErrorKind,
  ToolHost,
} from "../../tool-protocol/types.ts";

export type FakeOutcome =
  | { ok: true; data: unknown }
  | { ok: false; kind: ToolErrorKind; message: string; missing?: string[] };
export type FakeHandler = (args: Record<string, unknown>) => FakeOutcome | Promise<FakeOutcome>;

export const succeed = (data: unknown): FakeOutcome => ({ ok: true, data });
export const fail = (kind: ToolErrorKind, message: string, missing?: string[]): FakeOutcome => ({
  ok: false,
  kind,
  message,
  ...(missing ? { missing } : {}),
});

export class FakeToolHost implements ToolHost {
  readonly calls: { name: string; args: Record<string, unknown>; options?: CallOptions }[] = [];
  maxInFlight = 0;
  private inFlight = 0;

  constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly handlers: Record<string, FakeHandler>,
    /** Each call waits this long, so concurrency is observable. */
    private readonly delayMs = 0,
  ) {}

  listTools(): ToolDefinition[] {
    return [...this.tools];
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    this.calls.push({ name, args, ...(options ? { options } : {}) });
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const handler = this.handlers[name];
      const outcome = handler ? await handler(args) : fail("unknown_tool", `Unknown tool "${name}"`);
      if (outcome.ok) {
        return {
          ok: true,
          data: outcome.data,
          text: JSON.stringify(outcome.data),
          attempts: [],
          durationMs: this.delayMs,
        };
      }
      const { kind, message, missing } = outcome;
      return {
        ok: false,
        text: message,
        error: { kind, message, ...(missing ? { missing } : {}) },
        attempts: [],
        durationMs: this.delayMs,
      };
    } finally {
      this.inFlight -= 1;
    }
  }
}
