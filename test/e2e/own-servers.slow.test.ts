/**
 * The README's own-servers path from a Claude Desktop config, as a new user walks it: three official
 * servers from npm (`server-memory`, `server-everything`, `server-filesystem`) in `{"mcpServers": …}`
 * with nothing added, `dataset new` drafts, their TODOs filled, `dataset check` passing, and the
 * simulator's oracle scoring 100% on `native`, `jsonl` and `onsetlab-plus`: the setup measures the model
 * and nothing else. The items only read (the config says nothing of resets: the servers restart).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDataset } from "../../src/bench/dataset/check.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { newDataset } from "../../src/cli/dataset.ts";
import { benchRequest, REPO_ROOT } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-own-servers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const serverScript = (name: string) => join(REPO_ROOT, "node_modules/@modelcontextprotocol", name, "dist/index.js");

/** What a user's claude_desktop_config.json holds: absolute paths, the memory server's file in env. */
function claudeDesktopConfig(): string {
  cpSync(join(REPO_ROOT, "test/fixtures/byo/files"), join(root, "files"), { recursive: true });
  cpSync(join(REPO_ROOT, "test/fixtures/byo/memory/memory.jsonl"), join(root, "memory.jsonl"));
  const file = join(root, "claude_desktop_config.json");
  const config = {
    mcpServers: {
      memory: {
        command: "node",
        args: [serverScript("server-memory")],
        env: { MEMORY_FILE_PATH: join(root, "memory.jsonl") },
      },
      everything: { command: "node", args: [serverScript("server-everything")] },
      filesystem: { command: "node", args: [serverScript("server-filesystem"), join(root, "files")] },
    },
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** The author's part: per drafted tool, the query a user would ask, the values it names, what the answer says. */
const FILLED: Record<string, { query: string; args: Record<string, unknown>; says: string }> = {
  search_nodes: { query: "Search the memory nodes for Acme", args: { query: "Acme" }, says: "Acme" },
  open_nodes: { query: "Open the memory nodes of Alice", args: { names: [["Alice"]] }, says: "Alice" },
  echo: { query: "Echo the message 'hello from Porto'", args: { message: "hello from Porto" }, says: "Porto" },
  "get-sum": { query: "Get the sum of 19 and 23", args: { a: 19, b: 23 }, says: "42" },
  list_directory: {
    query: "List the directory notes in the project files",
    args: { path: join(root, "files/notes") },
    says: "todo.md",
  },
};

/** Replaces each "TODO" of a draft with the author's value, keeping the draft's shapes. */
function fill(draft: DatasetItem): DatasetItem {
  const tool = draft.calls[0]!.tool;
  const filled = FILLED[tool]!;
  return {
    ...draft,
    query: filled.query,
    calls: [{ tool, args: { ...draft.calls[0]!.args, ...filled.args } }],
    answer: { contains: [filled.says] },
    tags: draft.tags.filter((tag) => tag !== "todo"),
  };
}

describe("own servers from a Claude Desktop config, by the README's steps", () => {
  it("dataset new → TODOs filled → dataset check → sim:oracle 100% on native, jsonl and onsetlab-plus", async () => {
    const registry = claudeDesktopConfig();
    const dataset = join(root, "mine.jsonl");
    // 1. drafts, one per tool of the three servers
    const drafted = await newDataset([registry], dataset);
    expect(drafted.items).toBeGreaterThanOrEqual(30);
    const drafts = readFileSync(dataset, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as DatasetItem);
    // the drafts of the tools filled below, as dataset new wrote them
    const chosen = drafts.filter((item) => item.calls[0]!.tool in FILLED);
    expect(chosen.map((item) => item.servers[0])).toEqual(
      expect.arrayContaining(["memory", "everything", "filesystem"]),
    );
    expect(chosen.find((item) => item.calls[0]!.tool === "open_nodes")?.calls[0]?.args).toEqual({
      names: [["TODO"]],
    });

    // 2. the TODOs filled; dataset check: no problem, every gold call replayed
    writeFileSync(dataset, `${chosen.map((item) => JSON.stringify(fill(item))).join("\n")}\n`);
    const checked = await checkDataset({ paths: [dataset], registries: [registry], minimums: false });
    expect(checked.problems).toEqual([]);
    expect(checked.goldReplay).toMatchObject({ passed: chosen.length, failed: 0, skipped: [] });

    // 3. the oracle: 100% on every configuration, no run error
    const run = await runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["native", "jsonl", "onsetlab-plus"],
        matrix: undefined,
        dataset: [dataset],
        registries: [registry],
        transport: "stdio",
      }),
      resultsRoot: join(root, "results"),
    });
    expect(run.failures).toEqual([]);
    expect(
      run.summary.rows.filter((row) => row.group === null).map((row) => [row.config, row.n, row.taskSuccess.value]),
    ).toEqual([
      ["native", chosen.length, 1],
      ["jsonl", chosen.length, 1],
      ["onsetlab-plus", chosen.length, 1],
    ]);
  });
});
