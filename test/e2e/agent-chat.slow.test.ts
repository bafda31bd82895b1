/**
 * `agent --chat` with its turns piped on stdin, and `agent --continue ID "…"` going on with the stored
 * conversation in a second process: the simulator answers each turn from a conversation's gold, which it
 * can only find when the earlier turns were carried over.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONVERSATIONS_FOLDER } from "../../src/serve/conversation-store.ts";
import { agent } from "../support/agent-cli.ts";

const TURNS = [
  "What have people said in the comments on acme/api issue 3?",
  "What's the latest release of that same repo?",
  "List the brnaches in the same repository.",
];
const COMMON = ["--config", "native", "--dataset", "datasets/conversations/conversations.jsonl"];

describe("agent --chat and --continue", () => {
  it("holds a piped conversation, stores it, and continues it in another process", () => {
    const results = mkdtempSync(join(tmpdir(), "agent-chat-"));
    const chat = agent(
      ["--chat", "--model", "sim:oracle", ...COMMON, "--results", results, "--json"],
      `${TURNS[0]}\n\n${TURNS[1]}\n`,
    );
    expect(chat.stderr).toContain("2 turns stored");
    expect(chat.status).toBe(0);
    const lines = chat.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.turn)).toEqual([1, 2]);
    expect(lines[1].result.toolCalls.map((call: { tool: string }) => call.tool)).toEqual(["get_latest_release"]);
    expect(lines[1].result.answer).toContain("v1.1.0");
    const id: string = lines[0].conversationId;
    expect(lines[1].conversationId).toBe(id);

    // model and configuration come from the stored conversation
    const next = agent(["--continue", id, TURNS[2]!, "--dataset", COMMON[3]!, "--results", results, "--trace"]);
    expect(next.status).toBe(0);
    expect(next.stdout).toContain("list_branches");
    expect(next.stdout).toContain("feature/jwt-refresh");
    expect(next.stderr).toContain("3 turns stored");

    const files = readdirSync(join(results, CONVERSATIONS_FOLDER));
    expect(files).toEqual([`${id}.json`]);
    const stored = JSON.parse(readFileSync(join(results, CONVERSATIONS_FOLDER, files[0]!), "utf8"));
    expect(stored.turns.map((turn: { user: string }) => turn.user)).toEqual(TURNS);
    expect(stored).toMatchObject({ model: "sim:oracle", config: "native" });
  });

  it("refuses an unknown conversation and a chat given a query, exit 2, one line each", () => {
    const results = mkdtempSync(join(tmpdir(), "agent-chat-bad-"));
    const unknown = agent(["--continue", "c-nobody", "hello", "--results", results]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toEqual([expect.stringContaining("--continue c-nobody")]);
    const withQuery = agent(["--chat", "hello", "--model", "sim:oracle", "--results", results]);
    expect(withQuery.status).toBe(2);
    expect(withQuery.stderr).toContain("--chat reads its turns from stdin");
  });
});
