/**
 * Authoring a dataset for one's own servers: `dataset new` drafts one TODO item per tool and `dataset
 * check` guides through them (the replay's writes: test/e2e/dataset-check-writes.test.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "../../src/bench/dataset/check.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { loadSuite } from "../../src/bench/dataset/suite.ts";
import { todoProblems } from "../../src/bench/dataset/todo.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { newDataset } from "../../src/cli/dataset.ts";
import { REPO_ROOT } from "../support/bench-run.ts";

function registryFile(servers: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-authoring-")), "registry.json");
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

const mockEntry = (name: string) => {
  const registry = JSON.parse(readFileSync(join(REPO_ROOT, "mock-servers/registry.json"), "utf8")) as {
    servers: { name: string }[];
  };
  return { ...registry.servers.find((entry) => entry.name === name)!, cwd: REPO_ROOT };
};

describe("dataset new, then dataset check", () => {
  it("drafts one TODO item per tool with schema-derived arguments, and the check says what is left", async () => {
    const registry = registryFile([mockEntry("search")]);
    const out = join(mkdtempSync(join(tmpdir(), "onsetlab-new-")), "mine.jsonl");
    expect(await newDataset([registry], out)).toMatchObject({ items: 5 });
    const items = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as DatasetItem);
    expect(items.map((item) => item.calls[0]!.tool)).toEqual([
      "tavily_search",
      "tavily_extract",
      "tavily_crawl",
      "tavily_map",
      "tavily_research",
    ]);
    expect(items[0]).toMatchObject({
      id: "search-tavily_search",
      tags: ["todo"],
      calls: [{ args: { query: "TODO" } }],
    });
    expect(items.every((item) => item.query.startsWith("TODO"))).toBe(true);
    expect(loadSuite(out.replace(/\.jsonl$/, ".suite.yaml"))).toMatchObject({ servers: ["search"], clock: "none" });
    await expect(newDataset([registry], out)).rejects.toThrow(/exists; choose another name/);

    const drafted = await checkDataset({ paths: [out], registries: [registry], minimums: false });
    const todo = drafted.problems.filter((problem) => problem.message.startsWith("starter item still marked TODO"));
    expect(todo.map((problem) => problem.id)).toEqual(items.map((item) => item.id));
    expect(todo[0]!.message).toContain('add an "answer" check');
    // a draft would only fail the replay: it is not replayed until it is finished
    expect(drafted.goldReplay).toMatchObject({ passed: 0, failed: 0 });

    const finished: DatasetItem = {
      ...items[0]!,
      query: "Search the web for the latest on small language models",
      calls: [{ tool: "tavily_search", args: { query: "small language models" } }],
      answer: { regex: "." },
      tags: [],
    };
    writeFileSync(out, [finished, ...items.slice(1)].map((item) => JSON.stringify(item)).join("\n"));
    const after = await checkDataset({ paths: [out], registries: [registry], minimums: false });
    expect(after.problems.filter((problem) => problem.id === finished.id)).toEqual([]);
    expect(after.goldReplay).toMatchObject({ passed: 1, failed: 0 });
  });

  it("a finished item that speaks of a TODO (in a file, a todo.md) is no draft; the project's dataset has none", () => {
    const loaded = (item: DatasetItem) => ({ item, file: "mine.jsonl", line: 1 });
    const finished: DatasetItem = {
      id: "lab-todo",
      query: "Create /lab/todo.md containing '# TODO' and open an issue for the TODO in src/app.ts",
      category: "single",
      servers: ["lab"],
      route: "rewoo",
      calls: [{ tool: "file_write", args: { path: "/lab/todo.md", content: ["# TODO", "# TODO\n"] } }],
      order: "sequence",
      answer: { contains: ["todo.md"] },
      difficulty: "easy",
      tags: ["write"],
    };
    expect(todoProblems([loaded(finished)])).toEqual([]);
    const draft = { ...finished, calls: [{ tool: "file_write", args: { path: ["TODO"], content: "x" } }] };
    expect(todoProblems([loaded(draft)]).map((problem) => problem.message)).toEqual([
      "starter item still marked TODO: replace the TODO argument values with the query's",
    ]);
    expect(todoProblems([loaded({ ...finished, query: "TODO: a question" })])).toHaveLength(1);
    expect(todoProblems(loadDataset())).toEqual([]);
  });
});
