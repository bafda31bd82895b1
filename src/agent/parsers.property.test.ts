/** The parsers read model output: they must never throw, whatever a model writes. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCallArguments } from "./call-syntax.ts";
import { parseJsonl } from "./jsonl.ts";
import { parsePlan } from "./plan-parser.ts";
import { parseReactOutput } from "./react.ts";
import { defineTool, SAMPLE_TOOLS } from "./testing/definitions.ts";

const RUNS = 3000;

const PLAN_SAMPLES = [
  '#E1 = list_issues(owner="acme", repo="webapp", state="OPEN")\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=#E1.issues[0].number)',
  '#E1 = issue_write(method=\'create\', owner=acme, repo=webapp, labels=["a", {\'b\': [1, 2.5e3, None]}], title="x\\"y")',
  'Plan:\n```\n#E1: get_me()\n#E2 = slack_post_message("C01", text=#E1)\n```',
];
const REACT_SAMPLES = [
  ' Think.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
  "**Thought:** x\n**Action:** `get_me`\n**Action Input:** ```json\n{}\n```\nFinal Answer: y",
  "Action: list_issues(owner=\"a\", repo='b')",
];
const JSONL_SAMPLES = [
  '{"type":"tool_call","name":"get_me","arguments":{}}\n{"type":"final_answer","content":"x"}',
  "```json\n{type: 'tool_call', name: 'a', arguments: \"{\\\"k\\\": 1}\"}\n```",
];

/** Random edits that look like what goes wrong in model output: cut, dropped, doubled, stray syntax. */
function mangled(samples: readonly string[]): fc.Arbitrary<string> {
  const syntax = fc.constantFrom(..."()[]{}\"'\\#E1=,:.`\n ".split(""), "#E", "Action:", "Final Answer:", '{"type":');
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("drop" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: syntax }),
    fc.record({ kind: fc.constant("double" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  );
  return fc.tuple(fc.constantFrom(...samples), fc.array(edit, { maxLength: 6 })).map(([sample, edits]) =>
    edits.reduce((text, change) => {
      const at = text.length === 0 ? 0 : change.at % (text.length + 1);
      switch (change.kind) {
        case "cut":
          return text.slice(0, at);
        case "drop":
          return text.slice(0, at) + text.slice(at + change.length);
        case "insert":
          return text.slice(0, at) + change.text + text.slice(at);
        default:
          return text.slice(0, at) + text.slice(at, at + change.length) + text.slice(at);
      }
    }, sample),
  );
}

const anyOutput = (samples: readonly string[]) =>
  fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 200 }), mangled(samples));

// thousands of generated outputs each: generous limits, so a loaded machine does not fail them on time alone
describe("parsers never throw", { timeout: 60_000 }, () => {
  it("plan parser", () => {
    fc.assert(
      fc.property(anyOutput(PLAN_SAMPLES), (text) => {
        const { steps } = parsePlan(text, SAMPLE_TOOLS);
        for (const step of steps) {
          expect(step.id).toMatch(/^#E\d+$/);
          expect(Array.isArray(step.dependsOn)).toBe(true);
        }
        expect(new Set(steps.map((step) => step.id)).size).toBe(steps.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("ReAct parser", () => {
    fc.assert(
      fc.property(anyOutput(REACT_SAMPLES), (text) => {
        const parsed = parseReactOutput(text);
        // Exactly one of: an action, a final answer, or an error.
        expect([parsed.action, parsed.final, parsed.error].filter((part) => part !== undefined)).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });

  it("jsonl parser", () => {
    fc.assert(
      fc.property(anyOutput(JSONL_SAMPLES), (text) => {
        const { events } = parseJsonl(text);
        for (const event of events) expect(["tool_call", "final_answer"]).toContain(event.type);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("call syntax round trip", () => {
  const tool = defineTool("t", "probe", "", { a: {}, b: {}, c: {}, d: {} });
  const key = fc.constantFrom("a", "b", "c", "d");

  it("reads back any JSON value written as a named argument", () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 })), (args) => {
        const text = `#E1 = probe(${Object.entries(args)
          .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
          .join(", ")})`;
        const [step] = parsePlan(text, [tool]).steps;
        expect(step?.args).toEqual(JSON.parse(JSON.stringify(args)));
      }),
      { numRuns: RUNS },
    );
  });

  it("always ends inside the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (tail) => {
        const call = parseCallArguments(`(${tail}`, 0);
        expect(call.end).toBeLessThanOrEqual(tail.length + 1);
      }),
      { numRuns: RUNS },
    );
  });
});
