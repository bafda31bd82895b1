import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRegistry } from "../../mcp/registry.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { MockEnvironment } from "./environment.ts";
import { sessionServers } from "./session.ts";

const item = (id: string, servers: string[]): DatasetItem => ({
  id,
  query: "q",
  category: "single",
  servers,
  route: "rewoo",
  calls: [],
  order: "sequence",
  difficulty: "easy",
  tags: [],
});

let environment: MockEnvironment;
beforeAll(async () => {
  environment = await MockEnvironment.open({ registry: loadRegistry(), transport: "memory", pools: 1, seed: 7 });
});
afterAll(async () => {
  await environment.close();
});

describe("MockEnvironment sessions", () => {
  it("shows a query only its session's tools, and the same list to every query of that session", async () => {
    const slack = item("sl-x", ["slack"]);
    const registry = loadRegistry().servers.map((server) => server.name);
    const expected = sessionServers({ item: slack, exposure: "session", seed: 7, registry });
    const first = await environment.open(slack, "session");
    const tools = first.tools.listTools();
    await first.release();
    expect(first.servers).toEqual(expected);
    expect(new Set(tools.map((tool) => tool.server))).toEqual(new Set(expected));
    const again = await environment.open(slack, "session");
    expect(again.tools.listTools()).toBe(tools);

    // a tool of a server outside the session does not exist for the query
    const outside = environment.definitions().find((tool) => !expected.includes(tool.server))!;
    const refused = await again.tools.callTool(outside.name, {});
    await again.release();
    expect(refused).toMatchObject({ ok: false, error: { kind: "unknown_tool" } });
  });

  it("connects every server under exposure: all", async () => {
    const session = await environment.open(item("sl-y", ["slack"]), "all");
    expect(session.tools.listTools()).toHaveLength(environment.definitions().length);
    await session.release();
  });
});
