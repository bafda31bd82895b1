import { describe, expect, it } from "vitest";
import { createMockServer } from "../../../mock-servers/kit/server.ts";
import type { InProcessFactory } from "../../../src/mcp/connection.ts";
import { ClientPool } from "../../../src/mcp/pool.ts";
import type { Registry } from "../../../src/mcp/registry.ts";
import { counterSpec } from "../../support/counter-server.ts";

const registry: Registry = {
  file: "test-registry.json",
  baseDir: process.cwd(),
  servers: [{ name: "counter", purpose: "toy", transport: "stdio", command: "false", mock: true }],
};
const counterFactory: InProcessFactory = ({ onCrash }) => createMockServer(counterSpec, { onCrash }).server;

async function openPool(callTimeoutMs?: number): Promise<ClientPool> {
  return ClientPool.open(registry, {
    transport: "memory",
    inProcess: { counter: counterFactory },
    retryDelaysMs: [0, 0, 0],
    ...(callTimeoutMs ? { callTimeoutMs } : {}),
  });
}

describe("ClientPool (in-process)", () => {
  it("lists tools without the hidden control tools and calls one", async () => {
    const pool = await openPool();
    expect(pool.listTools().map((tool) => [tool.server, tool.name])).toEqual([["counter", "increment"]]);
    const result = await pool.callTool("increment", { name: "a" });
    expect(result).toMatchObject({ ok: true, data: { value: 2 }, attempts: [{ attempt: 1, outcome: "ok" }] });
    await pool.close();
  });

  it("reports an unknown tool without calling any server", async () => {
    const pool = await openPool();
    expect(await pool.callTool("decrement", {})).toMatchObject({
      ok: false,
      error: { kind: "unknown_tool" },
      attempts: [],
    });
    await pool.close();
  });

  it("never retries permanent failures: bad input, tool errors, -32002, schema violations", async () => {
    const pool = await openPool();
    const missing = await pool.callTool("increment", {});
    expect(missing).toMatchObject({ ok: false, error: { kind: "invalid_params", code: -32602, missing: ["name"] } });
    expect(missing.attempts).toHaveLength(1);

    const refused = await pool.callTool("increment", { name: "forbidden" });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: "tool_error" },
      text: "refused: that counter is read-only",
    });
    expect(refused.attempts).toHaveLength(1);

    await pool.control.setFaults("counter", { permanentRate: 1 });
    const permanent = await pool.callTool("increment", { name: "a" });
    expect(permanent).toMatchObject({ ok: false, error: { kind: "permanent", code: -32002 } });
    expect(permanent.attempts).toHaveLength(1);

    await pool.control.setFaults("counter", { malformedRate: 1 });
    const malformed = await pool.callTool("increment", { name: "a" });
    expect(malformed).toMatchObject({ ok: false, error: { kind: "schema_violation" } });
    expect(malformed.text).toContain("must have required property 'value'");
    expect(malformed.attempts).toHaveLength(1);
    await pool.close();
  });

  it("retries transient failures three times, then gives up", async () => {
    const pool = await openPool();
    await pool.control.setFaults("counter", { transientRate: 1 });
    const result = await pool.callTool("increment", { name: "a" });
    expect(result).toMatchObject({ ok: false, error: { kind: "transient", code: -32603 } });
    expect(result.attempts.map((attempt) => attempt.outcome)).toEqual([
      "transient",
      "transient",
      "transient",
      "transient",
    ]);
    await pool.close();
  });

  it("recovers when a transient failure clears on retry (seeded)", async () => {
    const pool = await openPool();
    await pool.control.setFaults("counter", { seed: 3, transientRate: 0.5 });
    const results = await Promise.all(Array.from({ length: 10 }, () => pool.callTool("increment", { name: "b" })));
    const retriedThenOk = results.filter((result) => result.ok && result.attempts.length > 1);
    expect(retriedThenOk.length).toBeGreaterThan(0);
    for (const result of retriedThenOk) expect(result.attempts.at(-1)?.outcome).toBe("ok");
    await pool.close();
  });

  it("gives up on a call that outlives its time limit and restarts the server that may be stuck", async () => {
    const pool = await openPool(30);
    await pool.control.setFaults("counter", { latencyMs: 100 });
    const result = await pool.callTool("increment", { name: "a" });
    expect(result).toMatchObject({ ok: false, error: { kind: "timeout", code: -32001 } });
    expect(result.attempts).toEqual([expect.objectContaining({ outcome: "timeout", restartedAfter: true })]);
    expect(pool.restartCount("counter")).toBe(1);
    // the restarted server starts without the latency: the next call answers
    expect(await pool.callTool("increment", { name: "a" })).toMatchObject({ ok: true, data: { value: 2 } });
    await pool.close();
  });

  it("sets its faults on every server at connect and again after a restart", async () => {
    const pool = await ClientPool.open(registry, {
      transport: "memory",
      inProcess: { counter: counterFactory },
      retryDelaysMs: [0, 0, 0],
      faults: { crashAfter: 2 },
    });
    expect(await pool.callTool("increment", { name: "a" })).toMatchObject({ ok: true });
    // the 2nd call crashes the server; the restarted one has the faults again, so its 2nd call (our 3rd) crashes it too
    for (const restarts of [1, 2]) {
      const crashed = await pool.callTool("increment", { name: "a" });
      expect(crashed.attempts.map((attempt) => attempt.outcome)).toEqual(["transient", "ok"]);
      expect(pool.restartCount("counter")).toBe(restarts);
    }
    await pool.close();
  });

  it("restarts a crashed server, retries the call, and says its state was reset", async () => {
    const pool = await openPool();
    await pool.callTool("increment", { name: "a" }); // a = 2
    await pool.control.setFaults("counter", { crashAfter: 2 });
    const result = await pool.callTool("increment", { name: "a" });
    expect(result).toMatchObject({ ok: true, data: { value: 2 } }); // fresh state: a was 1 again
    expect(result.attempts.map((attempt) => attempt.outcome)).toEqual(["transient", "ok"]);
    expect(result.attempts[1]?.restartedServer).toBe(true);
    expect(pool.restartCount("counter")).toBe(1);
    await pool.close();
  });

  it("resets, dumps and checks mock state through the hidden control tools", async () => {
    const pool = await openPool();
    await pool.callTool("increment", { name: "z" });
    expect(await pool.control.check("counter", "counter_equals", { name: "z", value: 1 })).toMatchObject({
      pass: true,
    });
    expect(await pool.control.dumpState("counter")).toEqual({ counters: { a: 1, z: 1 } });
    await pool.resetAll();
    expect(await pool.control.dumpState("counter")).toEqual({ counters: { a: 1 } });
    expect(await pool.control.check("counter", "counter_equals", { name: "z", value: 1 })).toMatchObject({
      pass: false,
    });
    await pool.close();
  });

  it("resetTouched resets only servers written to since their last reset", async () => {
    let states = 0;
    const counted = {
      ...counterSpec,
      createState: () => {
        states++;
        return counterSpec.createState();
      },
    };
    const pool = await ClientPool.open(registry, {
      transport: "memory",
      inProcess: { counter: ({ onCrash }) => createMockServer(counted, { onCrash }).server },
    });
    expect(states).toBe(1); // the server's start
    await pool.callTool("increment", { name: "z" });
    await pool.resetTouched();
    expect(states).toBe(2);
    expect(await pool.control.dumpState("counter")).toEqual({ counters: { a: 1 } });
    await pool.control.check("counter", "counter_equals", { name: "a", value: 1 }); // control calls do not touch
    await pool.resetTouched();
    expect(states).toBe(2);
    await pool.resetAll();
    expect(states).toBe(3);
    await pool.close();
  });

  it("refuses two servers that expose the same tool name", async () => {
    const twin = { ...registry.servers[0]!, name: "counter2" };
    const open = ClientPool.open(
      { ...registry, servers: [registry.servers[0]!, twin] },
      { transport: "memory", inProcess: { counter: counterFactory, counter2: counterFactory } },
    );
    await expect(open).rejects.toThrow('tool "increment" is provided by both "counter" and "counter2"');
  });

  it("names an unknown server", async () => {
    await expect(ClientPool.open(registry, { transport: "memory", servers: ["nope"] })).rejects.toThrow(
      'no server named "nope" (known: counter)',
    );
  });
});
