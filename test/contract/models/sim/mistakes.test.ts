/**
 * Every mistake type can be produced, and reaches the agent's parsers the way a real model's mistake
 * would: the parsed call shows exactly that mistake, or the parser's own repair of it.
 */

import { describe, expect, it } from "vitest";
import { parseJsonl } from "../../../../src/agent/jsonl.ts";
import { parsePlan } from "../../../../src/agent/plan-parser.ts";
import { buildPlannerPrompt, PLAN_PREFIX } from "../../../../src/agent/planner.ts";
import { parseReactOutput } from "../../../../src/agent/react.ts";
import { parseRouterAnswer } from "../../../../src/agent/router.ts";
import { cleanAnswer } from "../../../../src/agent/solver.ts";
import { SAMPLE_TOOLS } from "../../../../src/agent/testing/definitions.ts";
import { describeTool } from "../../../../src/agent/tool-schema.ts";
import { buildAction, type SimAction } from "../../../../src/models/sim/action.ts";
import type { CallErrorType } from "../../../../src/models/sim/error-types.ts";
import { type GoldCall, GoldIndex, goldCalls } from "../../../../src/models/sim/gold.ts";
import { looseText, type MistakeContext, type WrittenCall, writeCall } from "../../../../src/models/sim/mistakes.ts";
import { seededRandom } from "../../../../src/models/sim/random.ts";
import { readRequest } from "../../../../src/models/sim/reading.ts";
import { renderJsonl, renderNative } from "../../../../src/models/sim/render-chat.ts";
import {
  type Formatting,
  renderPlan,
  renderReact,
  renderRouter,
  renderSolver,
} from "../../../../src/models/sim/render-completion.ts";
import { readToolLine } from "../../../../src/models/sim/shown-tools.ts";
import { TEST_ITEMS, testItem } from "../../../../src/models/sim/testing/items.ts";
import { planTurn } from "../../../../src/models/sim/turn.ts";

const shown = SAMPLE_TOOLS.map((tool) => readToolLine(describeTool(tool))).filter((tool) => tool !== undefined);
const WRITE: GoldCall = goldCalls(testItem("sim-write"))[0] as GoldCall;
const READ: GoldCall = goldCalls(testItem("sim-read"))[0] as GoldCall;

function context(seed: number): MistakeContext {
  return { tools: shown, servers: ["github"], random: seededRandom(seed) };
}

/** The call through the ReWOO planner's parser. */
function planned(calls: WrittenCall[], formatting?: Formatting, seed = 1) {
  const text = renderPlan({ kind: "calls", calls, repeatable: [] }, formatting, seededRandom(seed));
  return { text, plan: parsePlan(`${PLAN_PREFIX}${text}`, SAMPLE_TOOLS) };
}

function mistaken(call: GoldCall, type: CallErrorType, seed = 1): WrittenCall {
  return writeCall(call, type, context(seed));
}

describe("call-level mistakes, as the planner's parser reads them", () => {
  it("wrong_tool: another tool that exists, with the same arguments", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const [step] = planned([mistaken(WRITE, "wrong_tool", seed)]).plan.steps;
      expect(step?.tool).not.toBe("issue_write");
      expect(SAMPLE_TOOLS.map((tool) => tool.name)).toContain(step?.tool);
      expect(step?.args).toEqual(WRITE.args);
    }
    // The neighbour shares name words: issue_read for issue_write.
    expect(mistaken(WRITE, "wrong_tool").tool).toBe("issue_read");
  });

  it("hallucinated_tool: a name no tool has, which the parser reports as unknown", () => {
    const names = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const [step] = planned([mistaken(WRITE, "hallucinated_tool", seed)]).plan.steps;
      expect(step?.error).toMatch(/unknown tool/);
      names.add(step?.tool ?? "");
    }
    expect([...names]).toEqual(expect.arrayContaining(["issueWrite", "github.issue_write", "create_issue"]));
  });

  it("missing_required_param: a required parameter left out, reported missing", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const [step] = planned([mistaken(READ, "missing_required_param", seed)]).plan.steps;
      expect(step?.missing).toHaveLength(1);
      expect(Object.keys(step?.args ?? {})).toHaveLength(Object.keys(READ.args).length - 1);
    }
  });

  it("wrong_param_name: the value kept under another name (case swap or synonym)", () => {
    const renamed = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const [step] = planned([mistaken(READ, "wrong_param_name", seed)]).plan.steps;
      const keys = Object.keys(step?.args ?? {});
      const extra = keys.filter((key) => !(key in READ.args));
      expect(extra).toHaveLength(1);
      expect(Object.values(step?.args ?? {}).sort()).toEqual(Object.values(READ.args).sort());
      renamed.add(extra[0] as string);
    }
    expect(renamed).toContain("issueNumber");
    expect([...renamed].some((name) => ["org", "organization", "user", "repository", "repo_name"].includes(name))).toBe(
      true,
    );
  });

  it('merged_owner_repo: repo="acme/webapp", with owner dropped or kept', () => {
    const shapes = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const [step] = planned([mistaken(WRITE, "merged_owner_repo", seed)]).plan.steps;
      expect(step?.args.repo).toBe("acme/webapp");
      shapes.add("owner" in (step?.args ?? {}) ? "kept" : "dropped");
    }
    expect(shapes).toEqual(new Set(["kept", "dropped"]));
  });

  it("wrong_value: exactly one value differs after the scorer's normalisation, often the prompt's example", () => {
    const values = new Set<unknown>();
    for (let seed = 1; seed <= 40; seed++) {
      const [step] = planned([mistaken(READ, "wrong_value", seed)]).plan.steps;
      const differing = Object.entries(READ.args).filter(
        ([key, gold]) => looseText(step?.args[key]) !== looseText(gold),
      );
      expect(differing).toHaveLength(1);
      for (const [key] of differing) values.add(step?.args[key]);
    }
    // Copied from the tool line `issue_read(method="get"|"get_comments"|"get_labels", owner="octocat", …)`.
    expect([...values]).toEqual(expect.arrayContaining(["octocat", "hello-world", 42]));
  });

  it("positional_args: values by position; the planner maps them onto the parameters in order", () => {
    const { text, plan } = planned([mistaken(READ, "positional_args")]);
    expect(text).toBe(' issue_read("get", "acme", "webapp", 2)');
    expect(plan.steps[0]?.args).toEqual(READ.args);
  });

  it("positional_args in ReAct and jsonl: the parsers drop them, so the call arrives without arguments", () => {
    const call = mistaken(READ, "positional_args");
    const react = parseReactOutput(
      renderReact({ kind: "calls", calls: [call], repeatable: [] }, undefined, seededRandom(1)),
    );
    expect(react).toMatchObject({ action: "issue_read", input: {} });
    const jsonl = parseJsonl(renderJsonl({ kind: "calls", calls: [call], repeatable: [] }, undefined, seededRandom(1)));
    expect(jsonl.events).toEqual([{ type: "tool_call", name: "issue_read", arguments: {} }]);
  });
});

describe("request-level mistakes", () => {
  const calls = goldCalls(testItem("sim-sequence")).map((call) => writeCall(call, undefined, context(1)));
  const gold = goldCalls(testItem("sim-sequence"));
  const asGold = (steps: { tool: string; args: Record<string, unknown> }[]) =>
    steps.map(({ tool, args }) => ({ tool, args }));

  it("prose_around_call: the planner's parser still finds the calls", () => {
    const { text, plan } = planned(calls, "prose_around_call");
    expect(text).toMatch(/^ To do this I will call get_me\(\)/);
    expect(text).toMatch(/This plan completes the task\.$/);
    expect(asGold(plan.steps)).toEqual(gold);
  });

  it("duplicate_steps: a repeated step, which the parser drops", () => {
    const { plan } = planned(calls, "duplicate_steps");
    expect(asGold(plan.steps)).toEqual(gold);
    expect(plan.notes.join(" ")).toMatch(/#E3 repeats #E\d: dropped/);
  });

  it("malformed_syntax: an unclosed call, a missing comma or an open string — never the gold plan", () => {
    const flaws = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const { text, plan } = planned(calls, "malformed_syntax", seed);
      expect(asGold(plan.steps.filter((step) => !step.error))).not.toEqual(gold);
      flaws.add(
        /channel_id="C01GENERAL" text/.test(text) ? "no_commas" : text.endsWith(")") ? "open_string" : "unclosed",
      );
    }
    expect(flaws).toEqual(new Set(["no_commas", "open_string", "unclosed"]));
  });

  it("malformed_syntax elsewhere: an unreadable router word, a broken ReAct turn, a native call left in text", () => {
    const action: SimAction = { kind: "calls", calls: calls.slice(0, 1), repeatable: [] };
    const routes = new Set<string>();
    const react = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      routes.add(
        parseRouterAnswer(renderRouter({ kind: "route", word: "ACTION" }, "malformed_syntax", seededRandom(seed))),
      );
      const parsed = parseReactOutput(renderReact(action, "malformed_syntax", seededRandom(seed)));
      react.add(parsed.error ? "unreadable" : JSON.stringify(parsed.input));
    }
    expect(routes).toEqual(new Set(["unclear"]));
    // No Action marker → unreadable; `Input:` instead of `Action Input:` → no arguments; a cut JSON → repaired.
    expect(react).toEqual(new Set(["unreadable", "{}"]));
    const native = renderNative(action, "malformed_syntax", seededRandom(1), (index) => `call_${index}`);
    expect(native.toolCalls).toEqual([]);
    expect(native.text).toMatch(/^<tool_call>\n\{"name":"get_me"/);
    expect(cleanAnswer(renderSolver({ kind: "final", answer: "Octo Dev." }, "malformed_syntax"))).toBe("Octo Dev.");
  });

  it("tool_call_on_direct: the forbidden tool of a missing_info item is called with invented values", () => {
    const item = testItem("sim-missing");
    const reading = readRequest(
      { kind: "complete", stage: "planner", prompt: buildPlannerPrompt({ query: item.query, tools: SAMPLE_TOOLS }) },
      new GoldIndex(TEST_ITEMS),
    );
    const action = buildAction(
      reading,
      planTurn(reading),
      { request: "tool_call_on_direct", calls: [] },
      seededRandom(1),
    );
    const [step] = planned(action.kind === "calls" ? action.calls : []).plan.steps;
    expect(step).toMatchObject({
      tool: "issue_write",
      args: { method: "create", owner: "octocat", repo: "hello-world" },
    });
    expect(renderRouter({ kind: "route", word: "ACTION" }, undefined, seededRandom(1))).toBe("ACTION");
  });

  it("direct_answer_when_tool_needed: no call written, an answer without tool data instead", () => {
    const item = testItem("sim-single");
    const reading = readRequest(
      { kind: "complete", stage: "planner", prompt: buildPlannerPrompt({ query: item.query, tools: SAMPLE_TOOLS }) },
      new GoldIndex(TEST_ITEMS),
    );
    const action = buildAction(
      reading,
      planTurn(reading),
      { request: "direct_answer_when_tool_needed", calls: [] },
      seededRandom(1),
    );
    expect(action.kind).toBe("final");
    const text = renderPlan(action, undefined, seededRandom(1));
    expect(parsePlan(`${PLAN_PREFIX}${text}`, SAMPLE_TOOLS).steps).toEqual([]);
    expect(action.kind === "final" ? action.answer : "").not.toContain("Login fails");
  });
});
