/**
 * The mock servers' control tools (`__reset`, `__state`, `__check`, `__faults`, mock-servers/kit): the
 * bench's reset between tasks, its state dumps and end-state checks, and fault injection. Only an entry
 * marked `mock: true` has them. Kept beside the pool, not in it: the pool is the transport, and reaches
 * any server; this object is what the bench asks of the project's own mocks.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { FaultConfig } from "../tool-protocol/faults.ts";
import { UnknownServerError } from "./errors.ts";
import type { RegistryEntry } from "./registry.ts";

/** A control tool's name starts so; the pool hides such tools from the model. */
export const CONTROL_TOOL_PREFIX = "__";

const CONTROL = { reset: "__reset", state: "__state", check: "__check", faults: "__faults" } as const;

/** A connected server as the control needs it: its entry (is it a mock?) and its current client. */
export interface ControlledServer {
  entry: RegistryEntry;
  client: Client;
}

export interface CheckVerdict {
  pass: boolean;
  detail: string;
}

export class MockControl {
  /** `server` finds a connected server by name (its client changes when the pool restarts it). */
  constructor(private readonly server: (name: string) => ControlledServer | undefined) {}

  /** The mock's state back to its seed. */
  async reset(server: string): Promise<void> {
    await this.call(server, CONTROL.reset, {});
  }

  async dumpState(server: string): Promise<unknown> {
    return ((await this.call(server, CONTROL.state, {})) as { state: unknown }).state;
  }

  /** A named end-state check (`expect`) of the mock, with its arguments. */
  async check(server: string, expect: string, args: Record<string, unknown>): Promise<CheckVerdict> {
    return (await this.call(server, CONTROL.check, { expect, args })) as CheckVerdict;
  }

  /** Fault injection on a mock server (off by default). */
  async setFaults(server: string, config: FaultConfig): Promise<void> {
    await this.call(server, CONTROL.faults, { config });
  }

  private async call(server: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
    const live = this.server(server);
    if (!live) throw new UnknownServerError("UNKNOWN_SERVER", `no connected server named "${server}"`);
    if (!live.entry.mock) throw new UnknownServerError("NOT_A_MOCK", `server "${server}" has no control tools`);
    const result = (await live.client.request(
      { method: "tools/call", params: { name: tool, arguments: args } },
      CallToolResultSchema,
    )) as CallToolResult;
    return result.structuredContent;
  }
}
