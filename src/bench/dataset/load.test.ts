import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetError, showInvisible } from "./errors.ts";
import { loadDataset, resolveDatasetFiles } from "./load.ts";
import { directItem } from "./testing/item.ts";

const item = (id: string) => directItem(id);

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
      '2 route: must be one of direct, rewoo, react, not "sideways"',
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
      'p1: order: must be "sequence", not "any"',
    ]);
  });

  it("reads a file that opens with a byte-order mark; a BOM or zero-width character elsewhere is shown escaped", () => {
    const dir = folder({
      "bom.jsonl": `\uFEFF${lines(item("b1"), item("b2"))}`,
      "inner.jsonl": `${JSON.stringify(item("c1"))}\n\uFEFF${JSON.stringify(item("c2"))}\n${JSON.stringify({ ...item("c3"), category: "direct\u200B" })}\n`,
    });
    expect(loadDataset(join(dir, "bom.jsonl")).map((entry) => entry.item.id)).toEqual(["b1", "b2"]);
    const message = (() => {
      try {
        loadDataset(join(dir, "inner.jsonl"));
      } catch (caught) {
        return (caught as DatasetError).message;
      }
      throw new Error("expected a DatasetError");
    })();
    const file = join(dir, "inner.jsonl");
    expect(message).toContain(`${file}:2: not valid JSON (Unexpected token '\\uFEFF', "\\uFEFF{"id":"c2`);
    expect(message).toMatch(
      /inner\.jsonl:3 \(c3\): .*category: must be one of direct, single, .*, not "direct\\u200B"$/,
    );
    expect(message).not.toMatch(/[\uFEFF\u200B]/u);
  });

  it("says a dataset file is empty rather than that no item matches", () => {
    const dir = folder({ "empty.jsonl": "", "blank.jsonl": "\n  \n", "ok.jsonl": lines(item("o1")) });
    expect(() => loadDataset(join(dir, "empty.jsonl"))).toThrow(
      `${join(dir, "empty.jsonl")}: the file is empty: a dataset file holds one JSON item per line`,
    );
    expect(() => loadDataset(dir)).toThrow(`${join(dir, "blank.jsonl")}: the file is empty`);
  });
});

describe("showInvisible", () => {
  it("escapes control, format and separator characters and odd spaces, and leaves visible text alone", () => {
    expect(showInvisible("a\uFEFFb\u200Bc\u200Dd\u200Ee\u00A0f\u2028g\th\u0007i\u{E0001}")).toBe(
      "a\\uFEFFb\\u200Bc\\u200Dd\\u200Ee\\u00A0f\\u2028g\\th\\u0007i\\u{E0001}",
    );
    expect(showInvisible('plain text, "quotes", ünïcödé, 漢字 and emoji 🙂')).toBe(
      'plain text, "quotes", ünïcödé, 漢字 and emoji 🙂',
    );
  });
});
