/**
 * Conversation lines: the loader's one-line errors, and the gold replay turn by turn — state persists
 * from turn to turn and is reset between conversations.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "./check.ts";
import { DatasetError } from "./errors.ts";
import { loadAll } from "./load.ts";
import { turnAsItem } from "./types.ts";

const CREATE = {
  tool: "issue_write",
  args: { method: "create", owner: "acme", repo: "webapp", title: "Turn one bug" },
};
const EXISTS = {
  server: "github",
  expect: "issue_exists",
  args: { owner: "acme", repo: "webapp", title: "Turn one bug" },
};

const conversation = {
  id: "cv-ok",
  category: "conversation",
  kind: "clarify",
  servers: ["github"],
  turns: [
    {
      user: "Open an issue in acme/webapp",
      ask: { reply: 'Call it "Turn one bug"', missing: ["title"] },
      calls: [CREATE],
      state: [EXISTS],
    },
    // passes only if turn 1's write is still there: state persists across turns
    { user: "Is it there now?", calls: [], state: [EXISTS] },
  ],
};

function datasetFile(lines: (object | string)[]): string {
  const dir = mkdtempSync(join(tmpdir(), "dataset-conv-"));
  const file = join(dir, "conversations.jsonl");
  writeFileSync(file, `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`);
  return file;
}

function problemsOf(lines: object[]): string[] {
  try {
    loadAll(datasetFile(lines));
  } catch (error) {
    if (error instanceof DatasetError) return error.problems.map((problem) => `${problem.line}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe("conversation lines", () => {
  it("load beside single-turn items, each kind to its own list", () => {
    const single = { ...turnAsItem(conversation as never, 0), id: "gh-one", query: "List issues in acme/webapp" };
    const { items, conversations } = loadAll(datasetFile([single, conversation]));
    expect(items.map((loaded) => loaded.item.id)).toEqual(["gh-one"]);
    expect(conversations.map((loaded) => [loaded.conversation.id, loaded.line])).toEqual([["cv-ok", 2]]);
  });

  it("a conversation with 0 turns, or an ask without its reply: one problem at its line", () => {
    expect(problemsOf([conversation, { ...conversation, id: "cv-empty", turns: [] }])).toEqual([
      "2: turns must NOT have fewer than 2 items",
    ]);
    const noReply = {
      ...conversation,
      id: "cv-ask",
      turns: [{ ...conversation.turns[0], ask: {} }, conversation.turns[1]],
    };
    expect(problemsOf([noReply])).toEqual(["1: turns.0.ask must have required property 'reply'"]);
  });

  it("replays turn by turn on shared state, reset between conversations", async () => {
    const second = { ...conversation, id: "cv-again" };
    // a conversation that expects turn 1's issue without making it: passes only if state leaked from cv-ok
    const leaked = {
      ...conversation,
      id: "cv-leak",
      kind: "follow_up",
      turns: [
        { user: "Anything new in acme/webapp?", calls: [], answer: { anyOf: ["no"] } },
        { user: "Is the turn-one bug there?", calls: [], state: [EXISTS] },
      ],
    };
    const report = await checkDataset({ paths: datasetFile([conversation, second, leaked]), minimums: false });
    expect(report.conversations).toBe(3);
    expect(report.goldReplay.passed).toBe(2);
    expect(report.goldReplay.failures.map((failure) => failure.id)).toEqual(["cv-leak"]);
    expect(report.goldReplay.failures[0]?.reason).toMatch(/^turn 2: state check github\.issue_exists should pass/);
  }, 60_000);
});
