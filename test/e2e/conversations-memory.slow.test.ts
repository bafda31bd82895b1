/**
 * Conversations over a third-party MCP server from npm: the official `@modelcontextprotocol/server-memory`
 * (a devDependency), reset by a fresh fixture copy before each conversation and never between its turns.
 * A follow-up (turn 2 refers to turn 1's result) and a clarification (the agent must ask; the scripted
 * user replies; the write happens after the reply). The oracle passes every conversation in every
 * configuration that holds one, and two other orders (`--shuffle`) give the same records.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { benchRequest, REPO_ROOT, recordContents } from "../support/bench-run.ts";
import { folderDigest } from "../support/folder-digest.ts";

const FIXTURE = join(REPO_ROOT, "test/fixtures/byo");
const root = mkdtempSync(join(tmpdir(), "onsetlab-conversations-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = async (shuffle: number) => {
  const outcome = await runBench({
    request: benchRequest({
      dataset: [join(FIXTURE, "conversations.jsonl")],
      registries: [join(FIXTURE, "registry.json")],
      models: ["sim:oracle"],
      configs: ["onsetlab-plus", "native", "jsonl"],
      matrix: undefined,
      shuffle,
    }),
    resultsRoot: root,
  });
  // which server reset ran before a task depends on the order: the rest may not
  const records = recordContents(outcome.dir).map(({ key, content }) => {
    const { session: _session, ...rest } = content as Record<string, unknown>;
    return { key, rest };
  });
  return { rows: outcome.summary.conversations!.rows, records };
};

describe("conversations over server-memory", () => {
  it("the oracle passes every turn, asks exactly on the clarify turn, and the order does not move a score", async () => {
    const before = folderDigest(FIXTURE);
    const first = await run(1);
    const second = await run(2);
    for (const summary of [first, second]) {
      expect(summary.rows.map((row) => [row.config, row.success.k, row.success.n, row.turns.k, row.turns.n])).toEqual([
        ["onsetlab-plus", 2, 2, 4, 4],
        ["native", 2, 2, 4, 4],
        ["jsonl", 2, 2, 4, 4],
      ]);
      for (const row of summary.rows) {
        expect(row.askedWhenNeeded.k, row.config).toBe(1);
        expect(row.askedNeedlessly.k, row.config).toBe(0);
        expect(Object.keys(row.byKind).filter((kind) => (row.byKind[kind]?.n ?? 0) > 0)).toEqual([
          "follow_up",
          "clarify",
        ]);
      }
    }
    expect(second.records).toEqual(first.records);
    expect(folderDigest(FIXTURE)).toEqual(before);
  }, 240_000);
});
