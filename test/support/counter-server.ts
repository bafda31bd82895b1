import { ToolError } from "../../mock-servers/kit/errors.ts";
import type { ServerSpec } from "../../mock-servers/kit/types.ts";

/** A toy mock server for tests of the kit and the client pool. */
export interface CounterState {
  counters: Record<string, number>;
}

export const counterSpec: ServerSpec<CounterState> = {
  name: "counter",
  version: "1.0.0",
  purpose: "A toy server for the kit's own tests.",
  createState: () => ({ counters: { a: 1 } }),
  tools: [
    {
      name: "increment",
      description: "Add one to a named counter.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      outputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: (args, { state }) => {
        const name = String(args.name);
        if (name === "forbidden") throw new ToolError("refused", "that counter is read-only");
        state.counters[name] = (state.counters[name] ?? 0) + 1;
        return { value: state.counters[name] };
      },
    },
  ],
  checks: {
    counter_equals: (state, args) => {
      const value = state.counters[String(args.name)];
      return { pass: value === args.value, detail: `counter ${String(args.name)} is ${String(value)}` };
    },
  },
};
