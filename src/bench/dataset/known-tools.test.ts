import { describe, expect, it } from "vitest";
import { loadRegistry, type Registry } from "../../mcp/registry.ts";
import { unknownToolProblems } from "./known-tools.ts";
import type { DatasetItem, LoadedItem } from "./types.ts";

const registry = loadRegistry();

function loaded(id: string, servers: string[], tools: string[], line = 1): LoadedItem {
  const item = {
    id,
    query: `query ${id}`,
    category: "single",
    servers,
    route: "rewoo",
    calls: tools.map((tool) => ({ tool, args: {} })),
    order: "any",
    difficulty: "easy",
    tags: [],
  } as unknown as DatasetItem;
  return { item, file: "/d/items.jsonl", line };
}

describe("gold calls against the registry's tools", () => {
  it("accepts tools the servers list, and names file:line, item and tool of one no server lists", () => {
    const problems = unknownToolProblems(
      [
        loaded("ok", ["github"], ["issue_write", "get_me"]),
        loaded("bad", ["github"], ["issue_write", "create_issue"], 7),
        loaded("nowhere", ["githb"], ["issue_write"], 9),
      ],
      registry,
    );
    expect(problems).toEqual([
      {
        file: "/d/items.jsonl",
        line: 7,
        id: "bad",
        message: `calls[1] create_issue: unknown tool (no server in ${registry.file} lists it)`,
      },
      expect.objectContaining({
        line: 9,
        id: "nowhere",
        message: expect.stringMatching(/^servers: unknown server "githb" \(.* has: github, /),
      }),
    ]);
  });

  it("leaves the calls of an item on a server that does not list its tools to the connected check", () => {
    const own: Registry = {
      ...registry,
      servers: [...registry.servers, { name: "mine", purpose: "x", transport: "stdio", command: "node" }],
    };
    expect(unknownToolProblems([loaded("own", ["mine"], ["whatever_tool"])], own)).toEqual([]);
  });

  it("says an unknown server once, at its first item, and suggests --registry", () => {
    const problems = unknownToolProblems(
      [
        loaded("m1", ["memory"], ["read_graph"], 1),
        loaded("m2", ["memory"], ["search_nodes"], 2),
        loaded("m3", ["memory"], ["open_nodes"], 3),
      ],
      registry,
    );
    expect(problems).toEqual([
      expect.objectContaining({
        line: 1,
        id: "m1",
        message: expect.stringMatching(
          /^servers: unknown server "memory" \(3 items, this the first; .* has: github, .*\): give the registry that declares it with --registry FILE$/,
        ),
      }),
    ]);
  });
});
