/**
 * `agent --chat` and `--continue` carry the mock servers' state from turn to turn: in one chat the
 * servers are kept; a conversation continued in another process gets its stored writes replayed. Three
 * whole CLI runs in child processes: the slow tier.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agent } from "../support/agent-cli.ts";

const COMMON = ["--config", "native", "--dataset", "datasets/conversations/conversations.jsonl"];
/** cv-fu-012: turn 1 opens a pull request, turn 2 lists the open ones. */
const WRITE_THEN_READ = [
  'In acme/api: make a branch feature/request-id, add docs/errors.md on it saying "Every error body includes request_id.", then open a PR into main titled "Document request IDs in errors".',
  "Look through the open PRs in that repo and merge the one that fixes the rate limiter.",
];
const OPENED = "Document request IDs in errors";

describe("agent --chat and --continue state", () => {
  it("carries state from turn to turn: in one chat, and continued in another process (writes replayed)", () => {
    const results = mkdtempSync(join(tmpdir(), "agent-chat-state-"));
    const [write, read] = WRITE_THEN_READ;
    const listed = (line: { result: { toolCalls: { tool: string; text: string }[] } }) =>
      line.result.toolCalls.find((call) => call.tool === "list_pull_requests")?.text ?? "";
    const chat = agent(
      ["--chat", "--model", "sim:oracle", ...COMMON, "--results", results, "--json"],
      `${write}\n${read}\n`,
    );
    expect(chat.status).toBe(0);
    const lines = chat.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(listed(lines[1])).toContain(OPENED);

    const first = agent(["--chat", "--model", "sim:oracle", ...COMMON, "--results", results, "--json"], `${write}\n`);
    const id: string = JSON.parse(first.stdout.trim()).conversationId;
    const next = agent(["--continue", id, read!, "--dataset", COMMON[3]!, "--results", results, "--json"]);
    expect(next.status).toBe(0);
    expect(next.stderr).toContain("state rebuilt by replaying 3 stored writes");
    expect(listed(JSON.parse(next.stdout.trim()))).toContain(OPENED);
  });
});
