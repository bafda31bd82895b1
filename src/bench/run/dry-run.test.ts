import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockServerFactories } from "../../../mock-servers/index.ts";
import { runAgent } from "../../agent/agent.ts";
import type { AgentResult } from "../../agent/types.ts";
import { ClientPool } from "../../mcp/pool.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import { createSimProvider } from "../../models/sim/index.ts";
import { loadDataset } from "../dataset/load.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { DryRunToolHost, dryRunItem } from "./dry-run.ts";
import { mockWorldContext } from "./resolve-request.ts";

const items = loadDataset().map((loaded) => loaded.item);
const item = (id: string): DatasetItem => items.find((candidate) => candidate.id === id)!;
// a write (issue_write create, checked by an end-state check) and a read (pull_request_read)
const WRITE = item("gh-s029");
const READ = item("gh-s004");

let pool: ClientPool;

beforeAll(async () => {
  pool = await ClientPool.open(loadRegistry(), { transport: "memory", inProcess: mockServerFactories });
});

afterAll(async () => {
  await pool.close();
});

async function everyState(): Promise<Record<string, unknown>> {
  const names = pool.serverNames();
  return Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await pool.control.dumpState(name)] as const)),
  );
}

function run(query: string, dryRun: boolean): Promise<AgentResult> {
  return runAgent(query, {
    config: { strategy: "rewoo" },
    model: createSimProvider({ profile: "oracle", gold: items }),
    tools: dryRun ? new DryRunToolHost(pool) : pool,
    ...mockWorldContext(),
  });
}

describe("DryRunToolHost", () => {
  it("previews a write: every mock server's state is unchanged and the trace marks the call", async () => {
    await pool.resetAll();
    const before = await everyState();
    const result = await run(WRITE.query, true);
    expect(await everyState()).toEqual(before);
    const write = result.toolCalls.find((call) => call.tool === "issue_write")!;
    expect(write).toMatchObject({
      ok: true,
      dryRun: true,
      data: { dryRun: true, tool: "issue_write", server: "github" },
    });
    expect(write.text ?? "").toMatch(/^dry run: issue_write \(github\) was not run/);
    expect((write.data as { arguments: Record<string, unknown> }).arguments).toMatchObject({
      method: "create",
      owner: "acme",
      repo: "webapp",
    });
  });

  it("the same query without the wrapper changes the state (so the check above can fail)", async () => {
    await pool.resetAll();
    const before = await everyState();
    const result = await run(WRITE.query, false);
    expect(result.toolCalls.find((call) => call.tool === "issue_write")?.dryRun).toBeUndefined();
    expect((await everyState()).github).not.toEqual(before.github);
  });

  it("runs read tools as they are, and keeps the inner host's tool list itself", async () => {
    await pool.resetAll();
    const host = new DryRunToolHost(pool);
    expect(host.listTools()).toBe(pool.listTools());
    const result = await run(READ.query, true);
    const read = result.toolCalls.find((call) => call.tool === "pull_request_read");
    expect(read?.dryRun).toBeUndefined();
    expect(JSON.stringify(read?.data)).toContain("Add dark mode toggle");
  });

  it("a dry run's item leaves out its end-state checks (not measured) and nothing else", () => {
    expect(WRITE.state?.length).toBeGreaterThan(0);
    const scored = dryRunItem(WRITE);
    expect(scored.state).toBeUndefined();
    expect({ ...scored, state: WRITE.state }).toEqual(WRITE);
    expect(dryRunItem(READ)).toBe(READ);
  });
});
