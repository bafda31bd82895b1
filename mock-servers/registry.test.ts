import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "../src/mcp/registry.ts";
import { mockServerFactories, mockServerSpecs } from "./index.ts";
import { specViolations } from "./kit/testing/index.ts";
import { registryEntryFor, registryFileText } from "./registry-entries.ts";

const registryFile = new URL("./registry.json", import.meta.url).pathname;

describe("mock-servers/registry.json", () => {
  it("is exactly what scripts/gen-registry.ts writes from the specs (run it after changing a server)", () => {
    const text = readFileSync(registryFile, "utf8");
    expect(JSON.parse(text)).toEqual({ servers: Object.values(mockServerSpecs).map(registryEntryFor) });
    // byte for byte: regenerating leaves the tree clean and the formatter content
    expect(registryFileText(JSON.parse(text))).toBe(text);
  });

  it("passes registry validation and lists the eight servers (then any scaffolded), each with an in-process factory", () => {
    const registry = loadRegistry(registryFile);
    expect(registry.servers.map((entry) => entry.name).slice(0, 8)).toEqual([
      "github",
      "slack",
      "notion",
      "search",
      "calendar",
      "filesystem",
      "builtin",
      "lab",
    ]);
    for (const entry of registry.servers) expect(mockServerFactories[entry.name]).toBeTypeOf("function");
  });

  it("has at least 100 tools, every spec following the kit's rules", () => {
    const specs = Object.values(mockServerSpecs);
    expect(specs.reduce((sum, spec) => sum + spec.tools.length, 0)).toBeGreaterThanOrEqual(100);
    for (const spec of specs) expect(specViolations(spec), spec.name).toEqual([]);
  });
});
