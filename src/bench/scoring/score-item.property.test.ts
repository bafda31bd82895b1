/** Property: scoring never throws on an arbitrary trace, and its output keeps its invariants. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatasetItem } from "../dataset/types.ts";
import { classifyPlannerOutput } from "./planner-output.ts";
import { scoreItem } from "./score-item.ts";
import { CREATE_ISSUE, item, TOOLS } from "./testing/fixtures.ts";
import type { StateCheckOutcome, ToolCallView, TraceView } from "./types.ts";

const ITEMS: DatasetItem[] = [
  item({
    id: "single",
    calls: [CREATE_ISSUE],
    state: [{ server: "github", expect: "issue_exists", args: { title: "Login fails" } }],
    answer: { contains: ["Login"], regex: "fail" },
  }),
  item({
    id: "sequence",
    category: "sequence",
    calls: [
      { tool: "get_me", args: {} },
      {
        tool: "issue_write",
        args: { method: "update", owner: "acme", repo: "webapp", issue_number: 1, title: { regex: "^x" } },
      },
    ],
  }),
  item({
    id: "parallel",
    category: "parallel",
    order: "any",
    calls: [
      { tool: "list_issues", args: { owner: "acme", repo: ["webapp", "api"], state: ["OPEN", ""] } },
      { tool: "slack_list_channels", args: { limit: { any: true } } },
    ],
  }),
  item({ id: "irrelevant", category: "irrelevant", route: "direct" }),
  item({
    id: "missing",
    category: "missing_info",
    route: "direct",
    forbidden: ["issue_write"],
    missing: ["title"],
    state: [{ server: "github", expect: "issue_exists", args: {}, negate: true }],
  }),
  item({ id: "direct", category: "direct", route: "direct", answer: { anyOf: ["4", "four"] } }),
];

const toolName = fc.oneof(
  fc.constantFrom(...TOOLS.map((tool) => tool.name)),
  fc.constantFrom("create_issue", "x"),
  fc.string(),
);
const number = fc.oneof(fc.double(), fc.integer(), fc.constant(Number.NaN));
const args = fc.dictionary(
  fc.oneof(fc.constantFrom("method", "owner", "repo", "title", "issue_number"), fc.string()),
  fc.jsonValue(),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const toolCall: fc.Arbitrary<ToolCallView> = fc.record(
  {
    seq: fc.nat(20),
    stage: fc.constantFrom("executor", "react", "fallback", "native", "jsonl"),
    stepId: maybe(fc.constantFrom("#E1", "#E2")),
    round: maybe(fc.nat(1)),
    tool: toolName,
    args,
    ok: fc.boolean(),
    error: maybe(
      fc.record({
        kind: fc.constantFrom("tool_error", "invalid_params", "timeout", "unknown_tool", "transient"),
        message: fc.string(),
        missing: maybe(fc.array(fc.string(), { maxLength: 2 })),
      }),
    ),
    startMs: number,
    durationMs: number,
    blocked: maybe(fc.boolean()),
  },
  { requiredKeys: ["seq", "stage", "tool", "args", "ok", "startMs", "durationMs"] },
);

/** Plan text: real-looking steps with noise, or any string at all. */
const planRaw = fc.oneof(
  fc.string({ unit: "binary" }),
  fc
    .array(fc.tuple(toolName, args, fc.constantFrom("", "\nprose", ")", "(", ", ", '"', "#E1.x", "#E9 =")), {
      maxLength: 4,
    })
    .map((steps) =>
      steps
        .map(([tool, values, noise], i) => {
          const params = Object.entries(values).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
          return `${i === 0 ? " " : `\n#E${i + 1} = `}${tool}(${params.join(", ")})${noise}`;
        })
        .join(""),
    ),
);

const iteration = fc.record(
  { action: maybe(toolName), parseError: maybe(fc.string()), callSeqs: maybe(fc.array(fc.nat(20), { maxLength: 2 })) },
  { requiredKeys: [] },
);

const traceArb: fc.Arbitrary<TraceView> = fc.record(
  {
    route: maybe(fc.record({ route: fc.constantFrom("DIRECT", "REWOO", "REACT", "other"), rule: fc.string() })),
    plan: maybe(
      fc.record({
        raw: planRaw,
        steps: fc.array(
          fc.record(
            {
              id: fc.constantFrom("#E1", "#E2"),
              tool: toolName,
              args,
              error: maybe(fc.constantFrom("syntax: call is not closed", "unknown tool", "missing required")),
              missing: maybe(fc.array(fc.string(), { maxLength: 2 })),
            },
            { requiredKeys: ["id", "tool", "args"] },
          ),
          { maxLength: 3 },
        ),
      }),
    ),
    modelCalls: fc.array(
      fc.record(
        {
          stage: fc.constantFrom("router", "planner", "solver"),
          durationMs: number,
          usage: maybe(fc.record({ promptTokens: number, completionTokens: number })),
          timings: maybe(fc.record({ totalMs: number, promptEvalMs: maybe(number), evalMs: maybe(number) })),
          error: maybe(fc.string()),
        },
        { requiredKeys: ["stage", "durationMs"] },
      ),
      { maxLength: 4 },
    ),
    steps: fc.array(
      fc.record({
        id: fc.constantFrom("#E1", "#E2"),
        tool: toolName,
        round: fc.nat(1),
        status: fc.constantFrom("ok" as const, "error" as const, "skipped" as const),
      }),
      { maxLength: 3 },
    ),
    toolCalls: fc.array(toolCall, { maxLength: 5 }),
    rescues: fc.array(
      fc.record({
        stepId: fc.constant("#E1"),
        tool: toolName,
        param: fc.constantFrom("owner", "repo", "title", "x"),
        value: fc.jsonValue(),
        pattern: fc.string(),
        round: fc.constant(1),
      }),
      { maxLength: 2 },
    ),
    fallback: fc.record({ used: fc.boolean(), iterations: fc.array(iteration, { maxLength: 3 }) }),
    iterations: fc.array(iteration, { maxLength: 3 }),
    writeGuard: fc.record({
      blocked: fc.array(fc.record({ tool: toolName, firstCallSeq: fc.nat(5) }), { maxLength: 2 }),
    }),
    answer: fc.string({ unit: "binary" }),
    error: maybe(
      fc.record({
        stage: fc.string(),
        code: fc.constantFrom("RUN_ABORTED", "MODEL_CALL_FAILED", "MAX_ITERATIONS"),
        message: fc.string(),
      }),
    ),
    timings: fc.record({ totalMs: number, modelMs: number, toolsMs: number }),
  },
  {
    requiredKeys: [
      "modelCalls",
      "steps",
      "toolCalls",
      "rescues",
      "fallback",
      "iterations",
      "writeGuard",
      "answer",
      "timings",
    ],
  },
);

function outcomesFor(gold: DatasetItem, passes: boolean[]): StateCheckOutcome[] {
  return (gold.state ?? []).map((spec, i) => ({ spec, pass: passes[i] ?? false, detail: "" }));
}

/** Every number in the score is finite (plain JSON, no NaN or Infinity). */
function allFinite(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value !== null && typeof value === "object") return Object.values(value).every(allFinite);
  return true;
}

describe("scoreItem on arbitrary traces", () => {
  it("never throws; failures are empty exactly on success; counts and times stay sane", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ITEMS),
        traceArb,
        fc.array(fc.boolean(), { maxLength: 2 }),
        (gold, run, passes) => {
          const score = scoreItem({ item: gold, trace: run, stateChecks: outcomesFor(gold, passes), tools: TOOLS });
          expect(score.failures.length === 0).toBe(score.taskSuccess);
          expect(new Set(score.failures).size).toBe(score.failures.length);
          expect(score.recovered.some((kind) => score.failures.includes(kind))).toBe(false);
          expect(score.params.argsCorrect).toBeLessThanOrEqual(score.params.argsTotal);
          expect(score.params.callsCorrect).toBeLessThanOrEqual(score.params.callsExpected);
          expect(score.latency.overheadMs).toBeGreaterThanOrEqual(0);
          expect(allFinite(score)).toBe(true);
          if (score.taskSuccess && gold.calls.length > 0) expect(score.toolChoice.callSet).toBe(true);
        },
      ),
      { numRuns: 250 },
    );
  });

  it("the planner classifier never throws on any text", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ITEMS), planRaw, (gold, raw) => {
        const result = classifyPlannerOutput(raw, gold, TOOLS);
        expect(result.errors.length).toBeGreaterThanOrEqual(new Set(result.steps.flatMap((s) => s.errors)).size);
      }),
      { numRuns: 250 },
    );
  });
});
