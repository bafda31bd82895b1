/**
 * `dataset check` on a server that is not a mock (the filesystem mock run as a user's own stdio server):
 * the gold replay writes only where the server's reset can undo it, or with --allow-writes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "../../src/bench/dataset/check.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { REPO_ROOT } from "../support/bench-run.ts";

function registryFile(servers: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-authoring-")), "registry.json");
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

// each start of the server under tsx takes a second or two
describe("dataset check on a server that is not a mock", { timeout: 60_000 }, () => {
  // the filesystem mock run as a user's own server: no control tools, reset by restarting it
  const registry = registryFile([
    {
      name: "files",
      purpose: "files under /workspace",
      transport: "stdio",
      command: "node",
      args: ["--import", "tsx", "mock-servers/filesystem/main.ts"],
      cwd: REPO_ROOT,
      reset: "restart",
    },
  ]);
  const path = "/workspace/notes/hi.txt";
  const items: DatasetItem[] = [
    {
      id: "byo-w1",
      query: `Write hello there to ${path}`,
      category: "single",
      servers: ["files"],
      route: "rewoo",
      calls: [{ tool: "write_file", args: { path, content: "hello there" } }],
      order: "sequence",
      state: [
        { call: { server: "files", tool: "read_text_file", args: { path } }, expect: { contains: "hello there" } },
      ],
      difficulty: "easy",
      tags: ["write"],
    },
    {
      id: "byo-r1",
      query: "Which directories may I access?",
      category: "single",
      servers: ["files"],
      route: "rewoo",
      calls: [{ tool: "list_allowed_directories", args: {} }],
      order: "sequence",
      answer: { contains: ["/workspace"] },
      difficulty: "easy",
      tags: [],
    },
  ];
  const dataset = join(mkdtempSync(join(tmpdir(), "onsetlab-byo-")), "files.jsonl");
  writeFileSync(dataset, items.map((item) => JSON.stringify(item)).join("\n"));

  it("replays reads, skips a write its reset cannot undo and says so; --allow-writes replays it", async () => {
    const careful = await checkDataset({ paths: [dataset], registries: [registry], minimums: false });
    expect(careful.problems).toEqual([]);
    expect(careful.goldReplay).toMatchObject({ passed: 1, failed: 0 });
    expect(careful.goldReplay.skipped).toEqual([
      expect.objectContaining({
        id: "byo-w1",
        reason: expect.stringMatching(
          /gold call 1 .*write_file writes to "files", whose reset \(restart\) cannot undo it/,
        ),
      }),
    ]);
    const allowed = await checkDataset({
      paths: [dataset],
      registries: [registry],
      minimums: false,
      allowWrites: true,
    });
    expect(allowed.goldReplay).toMatchObject({ passed: 2, failed: 0, skipped: [] });
  });

  it("a state check calling a tool that writes is a problem of the item", async () => {
    const writing = {
      ...items[0]!,
      state: [{ ...items[0]!.state![0]!, call: { server: "files", tool: "write_file", args: { path, content: "x" } } }],
    };
    const file = join(mkdtempSync(join(tmpdir(), "onsetlab-byo-")), "bad.jsonl");
    writeFileSync(file, JSON.stringify(writing));
    const report = await checkDataset({ paths: [file], registries: [registry], minimums: false });
    expect(report.problems.map((problem) => problem.message)).toContain(
      "state[0] files.write_file: a state check must call a read-only tool (readOnlyHint, or the registry entry's read_only_tools)",
    );
  });
});
