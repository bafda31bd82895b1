import { describe, expect, it } from "vitest";
import { type CounterState, counterSpec } from "../../test/support/counter-server.ts";
import { JSONRPC_PERMANENT_ERROR } from "./errors.ts";
import { openTestServer, specViolations } from "./testing/index.ts";
import type { ServerSpec } from "./types.ts";

describe("mock server kit", () => {
  it("accepts a well-formed spec", () => {
    expect(specViolations(counterSpec)).toEqual([]);
  });

  it("flags a write tool without destructiveHint and an output schema with nothing required", () => {
    const tool = counterSpec.tools[0]!;
    const bad: ServerSpec<CounterState> = {
      ...counterSpec,
      tools: [{ ...tool, annotations: { readOnlyHint: false }, outputSchema: { type: "object" } }],
    };
    expect(specViolations(bad)).toEqual([
      "counter.increment: outputSchema needs at least one required property (malformed-result faults rely on it)",
      "counter.increment: a write tool must say destructiveHint",
    ]);
  });

  it("hides control tools, validates input, returns domain errors as isError, resets state", async () => {
    const server = await openTestServer(counterSpec);
    const listed = await server.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["increment"]);

    expect(await server.ok("increment", { name: "a" })).toEqual({ value: 2 });
    expect(await server.check("counter_equals", { name: "a", value: 2 })).toMatchObject({ pass: true });

    const missing = await server.call("increment", {});
    expect(missing).toMatchObject({ kind: "rpc_error", code: -32602, data: { missing: ["name"] } });
    expect(missing.kind === "rpc_error" && missing.message).toContain("missing required parameter: name");

    expect(await server.call("increment", { name: "forbidden" })).toEqual({
      kind: "tool_error",
      text: "refused: that counter is read-only",
    });

    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual({ counters: { a: 1 } });
    await server.close();
  });

  it("injects seeded transient, permanent and malformed faults", async () => {
    const transient = await openTestServer(counterSpec, { transientRate: 1 });
    expect(await transient.call("increment", { name: "a" })).toMatchObject({ kind: "rpc_error", code: -32603 });
    await transient.close();

    const permanent = await openTestServer(counterSpec, { permanentRate: 1 });
    expect(await permanent.call("increment", { name: "a" })).toMatchObject({
      kind: "rpc_error",
      code: JSONRPC_PERMANENT_ERROR,
    });
    await permanent.close();

    const malformed = await openTestServer(counterSpec, { malformedRate: 1 });
    await expect(malformed.call("increment", { name: "a" })).rejects.toThrow(/breaks its outputSchema/);
    await malformed.close();
  });

  it("draws the same faults for the same seed", async () => {
    const pattern = async (seed: number) => {
      const server = await openTestServer(counterSpec, { seed, transientRate: 0.5 });
      const kinds: string[] = [];
      for (let i = 0; i < 20; i++) kinds.push((await server.call("increment", { name: "a" })).kind);
      await server.close();
      return kinds;
    };
    const first = await pattern(7);
    expect(await pattern(7)).toEqual(first);
    expect(first).toContain("ok");
    expect(first).toContain("rpc_error");
  });

  it("crashes after N calls by closing the in-memory link", async () => {
    const server = await openTestServer(counterSpec, { crashAfter: 2 });
    expect((await server.call("increment", { name: "a" })).kind).toBe("ok");
    expect(await server.call("increment", { name: "a" })).toMatchObject({ kind: "rpc_error", code: -32000 });
  });
});
