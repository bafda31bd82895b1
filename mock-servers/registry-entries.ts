import { FAULTS_ENV } from "../src/tool-protocol/faults.ts";
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

/**
 * registry.json's text as the repository keeps it (biome's JSON style at 120 columns): objects one field a
 * line, an array on one line when it fits. gen-registry and `scaffold server` write it so, and `pnpm lint`
 * passes after either.
 */
export function registryFileText(registry: { servers: unknown[] }): string {
  return `${jsonText(registry, "", "")}\n`;
}

const LINE_WIDTH = 120;

function jsonText(value: unknown, indent: string, key: string): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => jsonText(item, inner, ""))
    : Object.entries(value).map(([name, item]) => {
        const label = `${JSON.stringify(name)}: `;
        return `${label}${jsonText(item, inner, label)}`;
      });
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return `${open}${close}`;
  const inline = `${open}${entries.join(", ")}${close}`;
  // the line holds the indent, the key, the array and its trailing comma
  if (Array.isArray(value) && !inline.includes("\n") && indent.length + key.length + inline.length + 1 <= LINE_WIDTH) {
    return inline;
  }
  return `${open}\n${entries.map((entry) => `${inner}${entry}`).join(",\n")}\n${indent}${close}`;
}
