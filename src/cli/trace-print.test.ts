/**
 * The trace printer on real traces: the scripted model through the agent against in-process MCP
 * servers, so every line checked here is one the pipeline actually produced.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../mock-servers/kit/memory-host.ts";
import { chatSpec, hubSpec } from "../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../agent/agent.ts";
import type { AgentConfigInput } from "../agent/types.ts";
import { type Script, ScriptedModel } from "../models/scripted.ts";
import { formatTrace, type TracePrintOptions } from "./trace-print.ts";

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => host.reset());

const print: TracePrintOptions = { model: "scripted", configName: "test", simulated: false };

async function trace(query: string, script: Script, config: AgentConfigInput = {}) {
  return runAgent(query, { config, model: new ScriptedModel(script), tools: host });
}

/** The lines of the printout that start with `label` (and their continuation lines). */
function section(text: string, label: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(label));
  if (start === -1) throw new Error(`no "${label}" line in:\n${text}`);
  const end = lines.findIndex((line, index) => index > start && line !== "" && !line.startsWith(" "));
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

describe("formatTrace", () => {
  it("wrapped to a terminal's width: each line fits, continuations indented, prompts left as they were", async () => {
    const result = await trace('Get my user, then create an issue titled "Crash on save" in acme/webapp', {
      planner: [' get_me()\n#E2 = issue_write(owner="acme", repo="webapp", title="Crash on save")'],
      solver: ["Created issue 3."],
    });
    const wide = formatTrace(result, print);
    const narrow = formatTrace(result, { ...print, width: 80 });
    // only a single word longer than the room may stay over (a call's JSON arguments)
    for (const line of narrow.split("\n").filter((candidate) => candidate.length > 80)) {
      expect(line.trim()).not.toContain(" ");
    }
    const config = section(narrow, "config").split("\n");
    expect(config.length).toBeGreaterThan(2);
    expect(config.slice(1).every((line) => line.startsWith(" ".repeat(14)))).toBe(true);
    // a list's separator ends a line, never starts one
    expect(config.every((line) => !line.trim().startsWith("·"))).toBe(true);
    // the same words: only the line breaks differ
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(words(narrow)).toEqual(words(wide));
    // a prompt's lines are printed as the model saw them, however long
    const verbose = formatTrace(result, { ...print, verbose: true, width: 80 }).split("\n");
    const promptLines = result.modelCalls.flatMap((call) => (call.prompt ?? "").split("\n"));
    expect(promptLines.some((line) => line.length > 80)).toBe(true);
    for (const line of promptLines) expect(verbose).toContain(`${" ".repeat(16)}  ${line}`);
  });

  it("shows the route, the plan with its checks, the rescue that fixed it and the calls as sent", async () => {
    const result = await trace('Get my user, then create an issue titled "Crash on save" in acme/webapp', {
      planner: [
        ' get_me()\n#E2 = issue_write(owner="acme", repo="webapp", title="Crash on save")\n#E3 = issue_read(method="get", owner="acme", repo="webapp", issueNumber="1")',
      ],
      solver: ["Based on the results, created issue 3."],
    });
    const text = formatTrace(result, print);

    expect(section(text, "route")).toBe(
      `route       REWOO by rule sequence · relevance ${result.route?.relevance} · model not asked`,
    );
    expect(section(text, "skill")).toMatch(/^skill {7}github \(score \d+(\.\d)?, from (tools|query)\)$/);
    // the pipeline's axes as models.yaml names them (this run: onsetlab-plus, the built-in default)
    expect(section(text, "config")).toContain(
      "rescue extended · fallback on · write guard per_call · routing llm on · router plus/plus · ranking plus · retrieval schema+clauses+workflows+model · parser tolerant · plan many/concrete · field refs on · validation lenient · fallback any_failed×2 · react json/solver · builtins ranked · solver data shared · skills in react on",
    );
    const plan = section(text, "plan");
    expect(plan).toContain('#E2 = issue_write(owner="acme", repo="webapp", title="Crash on save")');
    expect(plan).toContain("parsed, as patched by the rescue:");
    expect(plan).toContain(
      '#E2 issue_write {"owner":"acme","repo":"webapp","title":"Crash on save","method":"create"}  ✓',
    );
    expect(plan).toContain("#E1 get_me {}  ✓");
    const steps = section(text, "steps").split("\n");
    expect(steps[0]).toMatch(/^steps {7}round 0: .*#E2 issue_write skipped: missing required parameter\(s\): method/);
    expect(steps[1]).toMatch(/^ {12}round 1: #E1 get_me ok \(reused\) · #E2 issue_write ok/);
    expect(section(text, "waves")).toBe("waves       [#E1] → [#E2] → [#E3]");
    expect(section(text, "rescues")).toBe(
      'rescues     #E2 issue_write.method = "create" (pattern method-intent, round 1)',
    );
    const calls = section(text, "tool calls");
    expect(calls).toMatch(
      /#\d executor #E3 r\d issue_read \{"method":"get","owner":"acme","repo":"webapp","issue_number":1\} → ok/,
    );
    expect(calls).toContain("renamed issueNumber→issue_number");
    expect(calls).toContain("coerced issue_number: string→number");
    expect(section(text, "answer")).toBe('answer      "Created issue 3." (by solver)');
    expect(section(text, "fallback")).toBe("fallback    not needed");
    expect(section(text, "model calls")).toMatch(/#1 planner complete · \d+→\d+ tokens · \d+\.\d ms/);
  });

  it("shows the fallback's turns and a failed call's error", async () => {
    const result = await trace("Show issue 99 in acme/webapp", {
      planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)'],
      fallback: [
        ' List them instead.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
        " I know.\nFinal Answer: Issue 99 does not exist.",
      ],
    });
    const text = formatTrace(result, print);
    const calls = section(text, "tool calls");
    expect(calls).toMatch(/#1 executor #E1 r0 issue_read .* → error \(\w+\)/);
    expect(calls).toMatch(/→ .*issue #99 not found/);
    expect(calls).toMatch(/#2 fallback list_issues \{"owner":"acme","repo":"webapp"\} → ok/);
    const fallback = section(text, "fallback");
    expect(fallback).toMatch(/^fallback {4}used after: .*issue #99 not found/);
    expect(fallback).toMatch(/1\. list_issues \{"owner":"acme","repo":"webapp"\} → /);
    expect(fallback).toContain('2. final: "Issue 99 does not exist."');
    // a multi-line observation stays on its turn's line
    expect(fallback.split("\n")).toHaveLength(3);
    expect(section(text, "answer")).toBe('answer      "Issue 99 does not exist." (by fallback)');
  });

  it("shows a write the guard blocked", async () => {
    const post =
      ' Post it.\nAction: slack_post_message\nAction Input: {"channel_id": "C01GENERAL", "text": "Standup in 5"}';
    const result = await trace(
      "Post 'Standup in 5' to C01GENERAL",
      { react: [post, post, " Done.\nFinal Answer: Posted."] },
      { strategy: "react" },
    );
    const text = formatTrace(result, print);
    expect(section(text, "write guard")).toBe(
      'write guard on, blocked slack_post_message {"channel_id":"C01GENERAL","text":"Standup in 5"} (react; first call #1)',
    );
    expect(section(text, "tool calls")).toContain("#2 react slack_post_message");
    expect(section(text, "tool calls")).toContain("BLOCKED by the write guard");
    expect(section(text, "iterations")).toMatch(/^iterations {2}3 \(react\)/);
  });

  it("prints prompts and outputs only when verbose, and labels simulated timings", async () => {
    const script = { solver: ["I can work with GitHub issues and Slack."] };
    const result = await trace("What can you do?", script);
    const plain = formatTrace(result, { ...print, simulated: true, modelNote: "simulated: a note" });
    expect(plain).not.toContain("prompt:");
    expect(section(plain, "model")).toBe("model       scripted (simulated: a note)");
    expect(section(plain, "model calls")).toMatch(/#1 solver complete .*\(simulated \d+\.\d ms\)/);
    expect(section(plain, "route")).toContain("DIRECT by rule meta");

    const verbose = formatTrace(result, { ...print, verbose: true });
    const calls = section(verbose, "model calls");
    expect(calls).toContain("prompt:");
    expect(calls).toContain("What can you do?");
    expect(calls).toContain("  I can work with GitHub issues and Slack.");
    expect(calls).toMatch(/\(reported \d+\.\d ms\)/);
  });

  it("shows a call's window and, where the estimate could not decide, the tokenizer's count or why there is none", async () => {
    const result = await trace("What can you do?", { solver: ["GitHub and Slack."] });
    const call = result.modelCalls[0]!;
    call.context = { window: 4096, windowSource: "server", estimate: 4672, countSource: "tokenizer", counted: 3505 };
    expect(section(formatTrace(result, print), "model calls")).toContain(
      " · window 4096 (the server's tokenizer counted 3505) · ",
    );
    call.context = { window: 4096, windowSource: "server", estimate: 900, countSource: "estimate" };
    expect(section(formatTrace(result, print), "model calls")).toMatch(/ · window 4096 · /);
    const uncounted = "no tokenizer at http://127.0.0.1:8000 (/tokenize answered 404)";
    call.context = { window: 4096, windowSource: "server", estimate: 4672, countSource: "estimate", uncounted };
    expect(section(formatTrace(result, print), "model calls")).toContain(` · window 4096 (estimated: ${uncounted}) · `);
  });

  it("reports a run that ended in error", async () => {
    const result = await trace("List the open issues in acme/webapp", {
      planner: [{ error: new Error("connection reset") }],
    });
    const text = formatTrace(result, print);
    expect(section(text, "error")).toMatch(/^error {7}planner MODEL_CALL_FAILED: .*connection reset/);
    expect(section(text, "model calls")).toContain("FAILED: connection reset");
  });

  it("says when the filter could not tell the tools apart", async () => {
    const query = "Remember that Ana lives in Porto";
    const blind = await trace(
      query,
      { react: [" Nothing fits.\nFinal Answer: I cannot."] },
      { strategy: "react", filter: 2 },
    );
    expect(section(formatTrace(blind, print), "tools")).toMatch(
      /^tools {7}2 of \d+ shown to the model: .*\n {12}warning: the filter could not tell the tools apart .*\n {14}these are the first tools in registry order/,
    );
    const all = await trace(
      query,
      { react: [" Nothing fits.\nFinal Answer: I cannot."] },
      { strategy: "react", filter: "all" },
    );
    expect(formatTrace(all, print)).not.toContain("could not tell the tools apart");
  });
});
