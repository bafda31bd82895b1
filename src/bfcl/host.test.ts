import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBfclDataset } from "./dataset.ts";
import { BfclInputError } from "./errors.ts";
import { type BfclHost, openBfclHost, openFunctionsHost } from "./host.ts";
import { BFCL_ECHO_SCHEMA } from "./server.ts";
import { type SampleDirs, writeSample } from "./testing/sample.ts";
import type { BfclFunctionDoc } from "./types.ts";

let sample: SampleDirs;
const hosts: BfclHost[] = [];

beforeAll(() => {
  sample = writeSample();
});
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  rmSync(sample.root, { recursive: true, force: true });
});

async function hostFor(id: string): Promise<BfclHost> {
  const { items } = loadBfclDataset("bfcl:simple,parallel,irrelevance", { dataDir: sample.dataDir });
  const host = await openBfclHost(items.find((item) => item.id === id)!, { dataDir: sample.dataDir });
  hosts.push(host);
  return host;
}

describe("in-process MCP server per BFCL item", () => {
  it("lists the item's own functions as tools with JSON Schema and the echo outputSchema", async () => {
    const host = await hostFor("irrelevance_0");
    const tools = host.listTools();
    expect(tools.map((t) => t.name)).toEqual(["calc.area", "math.factorial"]);
    expect(tools[0]).toMatchObject({
      server: "bfcl",
      inputSchema: { type: "object", required: ["base", "height"], properties: { base: { type: "integer" } } },
      outputSchema: BFCL_ECHO_SCHEMA,
    });
  });

  it("a valid call returns a structured echo of what was called", async () => {
    const host = await hostFor("simple_0");
    const result = await host.callTool("calc.area", { base: 10, height: 5, unit: "cm" });
    expect(result.ok).toBe(true);
    expect(result.data).toEqual({ tool: "calc.area", arguments: { base: 10, height: 5, unit: "cm" } });
  });

  it("arguments are validated against the schema: wrong type and missing required are invalid_params", async () => {
    const host = await hostFor("simple_0");
    const wrongType = await host.callTool("calc.area", { base: "10", height: 5 });
    expect(wrongType.error).toMatchObject({ kind: "invalid_params", code: -32602 });
    expect(wrongType.text).toContain('invalid parameter "base": must be integer');
    const missing = await host.callTool("calc.area", { base: 10 });
    expect(missing.error?.missing).toEqual(["height"]);
    const enumCase = await (await hostFor("simple_2")).callTool("get_weather", { city: "Paris", unit_system: "SI" });
    expect(enumCase.text).toContain("must be one of metric, imperial");
  });

  it("a function of another question is not served", async () => {
    const host = await hostFor("simple_0");
    const result = await host.callTool("math.factorial", { number: 5 });
    expect(result.error?.kind).toBe("unknown_tool");
  });

  it("the same function name with different docs in two questions gets each question's schema", async () => {
    const v1: BfclFunctionDoc = {
      name: "lookup",
      parameters: { type: "dict", properties: { id: { type: "integer" } }, required: ["id"] },
    };
    const v2: BfclFunctionDoc = {
      name: "lookup",
      parameters: { type: "dict", properties: { id: { type: "string" } }, required: ["id"] },
    };
    const [a, b] = await Promise.all([openFunctionsHost([v1], "q1"), openFunctionsHost([v2], "q2")]);
    hosts.push(a, b);
    expect((await a.callTool("lookup", { id: 3 })).ok).toBe(true);
    expect((await b.callTool("lookup", { id: 3 })).ok).toBe(false);
    expect((await b.callTool("lookup", { id: "3" })).ok).toBe(true);
  });

  it("a function documented twice in one question is bad input naming the question", async () => {
    const doc: BfclFunctionDoc = { name: "f", parameters: { type: "dict", properties: {} } };
    await expect(openFunctionsHost([doc, doc], "simple_77")).rejects.toThrow(BfclInputError);
    await expect(openFunctionsHost([doc, doc], "simple_77")).rejects.toThrow(
      /simple_77: function f is documented twice/,
    );
  });
});
