import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "./check.ts";

const good = {
  id: "gh-ok",
  query: 'Open an issue titled "Login fails" in acme/webapp',
  category: "single",
  servers: ["github"],
  route: "rewoo",
  calls: [{ tool: "issue_write", args: { method: "create", owner: "acme", repo: "webapp", title: "Login fails" } }],
  order: "sequence",
  state: [{ server: "github", expect: "issue_exists", args: { owner: "acme", repo: "webapp", title: "Login fails" } }],
  answer: { contains: ["Login fails"] },
  difficulty: "easy",
  tags: ["write", "skill:github"],
};

function datasetFile(lines: (object | string)[]): string {
  const dir = mkdtempSync(join(tmpdir(), "dataset-check-"));
  const file = join(dir, "items.jsonl");
  writeFileSync(file, `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`);
  return file;
}

async function check(lines: (object | string)[]) {
  const file = datasetFile(lines);
  return { file, report: await checkDataset({ paths: file, minimums: false }) };
}

describe("dataset check", () => {
  it("passes a correct item: schema, cross-check, gold replay, state and answer checks", async () => {
    const { report } = await check([good]);
    expect(report.problems).toEqual([]);
    expect(report.goldReplay).toEqual({ passed: 1, failed: 0, failures: [], skipped: [] });
    expect(report.ok).toBe(true);
  });

  it("reports a malformed line at file:line and still checks the other lines", async () => {
    const { file, report } = await check([good, '{"id": "broken", ']);
    expect(report.problems).toEqual([
      expect.objectContaining({ file, line: 2, message: expect.stringMatching(/not valid JSON/) }),
    ]);
    expect(report.goldReplay.passed).toBe(1);
    expect(report.ok).toBe(false);
  });

  it("reports a line that breaks the schema, naming the field", async () => {
    const { report } = await check([{ ...good, category: "simple" }]);
    expect(report.problems[0]?.message).toMatch(/category: must be one of direct, single/);
  });

  it("reports an unknown tool", async () => {
    const { report } = await check([{ ...good, calls: [{ tool: "create_issue", args: {} }] }]);
    expect(report.problems.map((problem) => problem.message)).toContainEqual(
      expect.stringMatching(/calls\[0\] create_issue: unknown tool/),
    );
  });

  it("reports an unknown parameter and a value outside the parameter's enum", async () => {
    const call = { tool: "issue_write", args: { ...good.calls[0]!.args, titel: "x", method: "open" } };
    const { report } = await check([{ ...good, calls: [call] }]);
    const messages = report.problems.map((problem) => problem.message).join("\n");
    expect(messages).toMatch(/unknown parameter "titel"/);
    expect(messages).toMatch(/method = "open" does not fit the parameter's schema/);
  });

  it("reports a regex that does not compile, in call arguments and in the answer check", async () => {
    const call = { tool: "issue_write", args: { ...good.calls[0]!.args, body: ["", { regex: "([unclosed" }] } };
    const { report } = await check([{ ...good, calls: [call], answer: { regex: "(?<bad" } }]);
    const messages = report.problems.map((problem) => problem.message);
    expect(messages).toContainEqual(expect.stringMatching(/body: regex "\(\[unclosed" does not compile/));
    expect(messages).toContainEqual(expect.stringMatching(/answer\.regex: regex "\(\?<bad" does not compile/));
  });

  it("reports a required parameter without a gold value, or marked may-be-omitted", async () => {
    const call = {
      tool: "issue_write",
      args: { method: "create", owner: ["", "acme"], repo: { any: true }, title: "x" },
    };
    const { report } = await check([{ ...good, calls: [call] }]);
    const messages = report.problems.map((problem) => problem.message);
    expect(messages).toContainEqual(expect.stringMatching(/required parameter "repo" has no gold value/));
    expect(messages).toContainEqual(expect.stringMatching(/required parameter "owner" is marked may-be-omitted/));
  });

  it("reports a gold call that fails on the server", async () => {
    const call = { tool: "issue_write", args: { method: "update", owner: "acme", repo: "webapp", issue_number: 9999 } };
    const { report } = await check([{ ...good, calls: [call] }]);
    expect(report.goldReplay.failed).toBe(1);
    expect(report.goldReplay.failures[0]?.reason).toMatch(/gold call 1 issue_write failed: .*9999/);
  });

  it("reports a state check that the gold calls do not satisfy, and an unsupported answer check", async () => {
    const state = [
      { server: "github", expect: "issue_exists", args: { owner: "acme", repo: "webapp", title: "Other" } },
    ];
    const { report } = await check([{ ...good, state, answer: { contains: ["Nowhere to be seen"] } }]);
    const reasons = report.goldReplay.failures.map((failure) => failure.reason);
    expect(reasons).toContainEqual(expect.stringMatching(/state check github.issue_exists should pass/));
    expect(reasons).toContainEqual(expect.stringMatching(/answer check not supported .*Nowhere to be seen/));
  });

  it("reports an identifier a gold call could not have known (not in the query, not in an earlier result)", async () => {
    const post = { tool: "slack_post_message", args: { channel_id: "C002RLLTCJR", text: "deploy done" } };
    const slackItem = {
      ...good,
      id: "sl-guess",
      query: "Tell the engineering channel the deploy is done",
      servers: ["slack"],
      calls: [post],
      state: [
        { server: "slack", expect: "message_posted", args: { channel_id: "C002RLLTCJR", text_contains: "deploy" } },
      ],
      answer: undefined,
      tags: ["write"],
    };
    const { report } = await check([slackItem]);
    expect(report.goldReplay.failures.map((failure) => failure.reason)).toContainEqual(
      "gold call 1 slack_post_message sends C002RLLTCJR, found neither in the query nor in an earlier result",
    );
  });

  it("honours negated state checks", async () => {
    const state = [
      {
        server: "github",
        expect: "issue_exists",
        args: { owner: "acme", repo: "webapp", title: "Login fails" },
        negate: true,
      },
    ];
    const { report } = await check([{ ...good, state: [...good.state, ...state] }]);
    expect(report.goldReplay.failures[0]?.reason).toMatch(/issue_exists should fail/);
  });

  it("reports an unknown state check name, a wrong write tag, duplicate ids and near-duplicate queries", async () => {
    const { file, report } = await check([
      { ...good, state: [{ server: "github", expect: "issue_there", args: {} }] },
      { ...good, id: "gh-ok" },
      {
        ...good,
        id: "gh-clone",
        query: 'Open an issue titled "Login fails" in acme/webapp now',
        tags: ["skill:github"],
      },
    ]);
    const messages = report.problems.map((problem) => `${problem.line}: ${problem.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^1: .*"issue_there" is not a check of github/));
    expect(messages).toContainEqual(`2: duplicate id, first used at ${file}:1`);
    expect(messages).toContainEqual('3: calls a write tool but has no "write" tag');
    expect(report.nearDuplicatePairs).toEqual([{ a: "gh-ok", b: "gh-clone", similarity: 0.9 }]);
  });
});
