/** The parsers read model output: they must never throw, whatever a model writes. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCallArguments } from "./call-syntax.ts";
import { parseJsonl } from "./jsonl.ts";
import { parsePlan } from "./plan-parser.ts";
import { parseReactOutput } from "./react.ts";
import { defineTool, SAMPLE_TOOLS } from "./testing/definitions.ts";
import { anyOutput, JSONL_SAMPLES, PLAN_SAMPLES, REACT_SAMPLES } from "./testing/fuzz-corpus.ts";

const RUNS = 3000;

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
