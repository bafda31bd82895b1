/**
 * `dataset new` on the official memory server, whose add_observations takes an array of strings inside an
 * array of objects: the draft is in the dataset's form, so once its TODOs are filled the check passes,
 * and an unwrapped array gets a message that says to wrap it. A real server: an e2e test.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "../../src/bench/dataset/check.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { newDataset } from "../../src/cli/dataset.ts";
import { REPO_ROOT } from "../support/bench-run.ts";

function registryFile(servers: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-authoring-")), "registry.json");
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

describe("dataset new, then dataset check, on arrays inside arrays of objects", () => {
  it("a draft of a tool taking arrays inside an array of objects passes the check once its TODOs are filled", async () => {
    const memory = {
      name: "memory",
      purpose: "The official MCP memory server",
      transport: "stdio",
      command: "node",
      args: [join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")],
      env: { MEMORY_FILE_PATH: "{fixture}/memory.jsonl" },
      reset: "fixture",
      fixture_dir: join(REPO_ROOT, "test/fixtures/byo/memory"),
    };
    const registry = registryFile([memory]);
    const out = join(mkdtempSync(join(tmpdir(), "onsetlab-new-")), "mine.jsonl");
    await newDataset([registry], out);
    const drafts = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as DatasetItem);
    const draft = drafts.find((item) => item.calls[0]!.tool === "add_observations")!;
    expect(draft.calls[0]!.args).toEqual({ observations: [[{ entityName: "TODO", contents: [["TODO"]] }]] });
    const fill = (value: unknown): unknown =>
      value === "TODO"
        ? "Alice"
        : Array.isArray(value)
          ? value.map(fill)
          : typeof value === "object" && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]))
            : value;
    const filled = (item: DatasetItem): DatasetItem => ({
      ...item,
      query: "Note that Alice lives in Porto",
      calls: item.calls.map((call) => ({ ...call, args: fill(call.args) as Record<string, unknown> })),
      state: [
        { call: { server: "memory", tool: "open_nodes", args: { names: ["Alice"] } }, expect: { contains: "Alice" } },
      ],
      tags: item.tags.filter((tag) => tag !== "todo"),
    });
    writeFileSync(out, JSON.stringify(filled(draft)));
    const checked = await checkDataset({ paths: [out], registries: [registry], minimums: false });
    expect(checked.problems).toEqual([]);
    expect(checked.goldReplay).toMatchObject({ passed: 1, failed: 0 });

    // written the way the rules do not read it, the check says to wrap the array
    const unwrapped = {
      ...filled(draft),
      calls: [
        { tool: "add_observations", args: { observations: [[{ entityName: "Alice", contents: ["Lives in Porto"] }]] } },
      ],
    };
    writeFileSync(out, JSON.stringify(unwrapped));
    const rejected = await checkDataset({ paths: [out], registries: [registry], minimums: false });
    expect(rejected.problems.map((problem) => problem.message).join("\n")).toMatch(
      /must be array.*written wrapped.*\[\["a", "b"\]\]/,
    );
  });
});
