import { FAULTS_ENV } from "../src/mcp/faults.ts";
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
    // fault injection reaches the server processes (a user's own servers pass only what they list)
    env: [FAULTS_ENV],
    mock: true,
    tools: spec.tools.map((tool) => tool.name),
  };
}
