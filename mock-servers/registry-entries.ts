import type { ServerSpec } from "./kit/types.ts";

/** The registry entry of a mock server, derived from its spec (scripts/gen-registry.ts writes registry.json). */
export function registryEntryFor(spec: ServerSpec<unknown>) {
  return {
    name: spec.name,
    purpose: spec.purpose,
    transport: "stdio" as const,
    command: "node",
    args: [`dist/mock-servers/${spec.name}.mjs`],
    cwd: "..",
    env: [],
    mock: true,
    tools: spec.tools.map((tool) => tool.name),
  };
}
