import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetError } from "./errors.ts";
import { loadDataset, resolveDatasetFiles } from "./load.ts";

const item = (id: string) => ({
  id,
  query: `what is ${id}?`,
  category: "direct",
  servers: ["builtin"],
  route: "direct",
  calls: [],
  order: "any",
  difficulty: "easy",
  tags: [],
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "dataset-load-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const lines = (...items: object[]) => `${items.map((entry) => JSON.stringify(entry)).join("\n")}\n`;

describe("loadDataset", () => {
  it("reads every .jsonl of a folder in name order, skipping blank lines, and keeps file:line", () => {
    const dir = folder({
      "b.jsonl": lines(item("b1")),
      "a.jsonl": `${JSON.stringify(item("a1"))}\n\n${JSON.stringify(item("a2"))}\n`,
    });
    const loaded = loadDataset(dir);
    expect(loaded.map((entry) => [entry.item.id, entry.line])).toEqual([
      ["a1", 1],
      ["a2", 3],
      ["b1", 1],
    ]);
  });

  it("resolves a wildcard pattern and rejects one that matches nothing, naming it", () => {
    const dir = folder({ "git.jsonl": lines(item("g")), "slack.jsonl": lines(item("s")), "notes.txt": "x" });
    expect(resolveDatasetFiles(join(dir, "g*.jsonl"))).toEqual([join(dir, "git.jsonl")]);
    expect(() => resolveDatasetFiles(join(dir, "x*.jsonl"))).toThrow(/x\*\.jsonl: no dataset file matches/);
    expect(() => resolveDatasetFiles(join(dir, "nope.jsonl"))).toThrow(/nope\.jsonl: no such file or folder/);
  });

  it("throws one DatasetError listing every bad line with its reason, and returns nothing", () => {
    const dir = folder({
      "a.jsonl": lines(item("a1"), { ...item("a2"), route: "sideways" }, { ...item("a3"), extra: 1 }, item("a1")),
    });
    const error = (() => {
      try {
        loadDataset(dir);
      } catch (caught) {
        return caught as DatasetError;
      }
      throw new Error("expected a DatasetError");
    })();
    expect(error).toBeInstanceOf(DatasetError);
    expect(error.code).toBe("DATASET_INVALID");
    const file = join(dir, "a.jsonl");
    expect(error.problems.map((problem) => `${problem.line} ${problem.message}`)).toEqual([
      "2 route: must be one of direct, rewoo, react",
      '3 item: unknown field "extra"',
      `4 duplicate id, first used at ${file}:1`,
    ]);
    expect(error.message).toContain(`${file}:2 (a2): route: must be one of`);
  });

  it("enforces the category rules: calls for tool categories, none for direct, missing/forbidden for missing_info", () => {
    const dir = folder({
      "a.jsonl": lines(
        { ...item("s1"), category: "single", route: "rewoo" },
        { ...item("m1"), category: "missing_info" },
        {
          ...item("p1"),
          category: "sequence",
          route: "rewoo",
          calls: [
            { tool: "t", args: {} },
            { tool: "u", args: {} },
          ],
        },
      ),
    });
    const problems = (() => {
      try {
        loadDataset(dir);
        return [];
      } catch (caught) {
        return (caught as DatasetError).problems.map((problem) => `${problem.id}: ${problem.message}`);
      }
    })();
    expect(problems).toEqual([
      "s1: calls must NOT have fewer than 1 items",
      "m1: item must have required property 'missing'; item must have required property 'forbidden'",
      'p1: order: must be "sequence"',
    ]);
  });
});
