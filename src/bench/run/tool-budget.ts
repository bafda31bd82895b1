/**
 * A run's tool-call budget (`POST /run`'s `max_tool_calls`): the first `max` calls go through; every later
 * call is refused without reaching a server, its error naming the limit, and the budget notes that it was
 * reached. The agent then ends the run with what it has, as it does after any failed call.
 */
import type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";

export class ToolCallBudget implements ToolHost {
  private made = 0;
  /** A call was refused: the limit ended the run's tool use. */
  reached = false;

  constructor(
    private readonly inner: ToolHost,
    readonly max: number,
  ) {}

  listTools(): readonly ToolDefinition[] {
    return this.inner.listTools();
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    if (this.made >= this.max) {
      this.reached = true;
      const message = `not called: the run's limit of ${this.max} tool calls (max_tool_calls) is reached`;
      return { ok: false, text: message, error: { kind: "permanent", message }, attempts: [], durationMs: 0 };
    }
    this.made += 1;
    return this.inner.callTool(name, args, options);
  }
}
