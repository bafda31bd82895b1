/**
 * The simulator's self-check: over many varied prompts, how often each mistake was drawn matches its
 * effective rate — the mean effective rate lies inside the Wilson interval of the realised share, at 95%
 * for the whole family of comparisons (Bonferroni: 12 types × 2 profiles, so z for p = 0.05 / 24 per
 * type; at a plain 95% each, one of 24 true rates would fall outside by chance in most runs).
 * (The bench's calibration test, which measures mistakes with the scorer, builds on these hooks.)
 */

import { describe, expect, it } from "vitest";
import { buildJsonlSystemPrompt } from "../../../../src/agent/jsonl.ts";
import { toChatTools } from "../../../../src/agent/native.ts";
import { buildPlannerPrompt } from "../../../../src/agent/planner.ts";
import { buildReactPrompt } from "../../../../src/agent/react.ts";
import { buildRouterPrompt } from "../../../../src/agent/router.ts";
import { SKILLS } from "../../../../src/agent/skills/catalog.ts";
import { skillRulesText } from "../../../../src/agent/skills/detect.ts";
import { buildSolverPrompt } from "../../../../src/agent/solver.ts";
import { SAMPLE_TOOLS } from "../../../../src/agent/testing/definitions.ts";
import { SimEngine } from "../../../../src/models/sim/engine.ts";
import { CALL_ERROR_TYPES, REQUEST_ERROR_TYPES, type SimErrorType } from "../../../../src/models/sim/error-types.ts";
import { seededRandom } from "../../../../src/models/sim/random.ts";
import type { SimRequest } from "../../../../src/models/sim/reading.ts";
import { TEST_ITEMS } from "../../../../src/models/sim/testing/items.ts";
import type { ModelStage } from "../../../../src/models/types.ts";

const STAGES: ModelStage[] = ["router", "planner", "react", "fallback", "solver", "jsonl", "native"];
const GITHUB_RULES = skillRulesText(SKILLS[0]!);

/** A varied request: any item, any protocol, 1–12 tools shown, skill rules or not, tool data or not. */
function syntheticRequest(index: number): SimRequest {
  const random = seededRandom(index * 7919 + 1);
  const item = TEST_ITEMS[Math.floor(random() * TEST_ITEMS.length)]!;
  const stage = STAGES[Math.floor(random() * STAGES.length)]!;
  const tools = SAMPLE_TOOLS.filter(() => random() < 0.5);
  const shown = tools.length > 0 ? tools : SAMPLE_TOOLS.slice(0, 1);
  const skillRules = random() < 0.5 ? GITHUB_RULES : undefined;
  const query = item.query;
  switch (stage) {
    case "router":
      return { kind: "complete", stage, prompt: buildRouterPrompt(query, shown) };
    case "planner":
      return {
        kind: "complete",
        stage,
        prompt: buildPlannerPrompt({
          query,
          tools: shown,
          ...(skillRules ? { skillRules } : {}),
          context: `run ${index}`,
        }),
      };
    case "react":
    case "fallback": {
      const errorContext = stage === "fallback" ? `#E1 = get_me() -> failed (run ${index})` : undefined;
      const turns =
        stage === "react" ? [{ thought: "", action: "get_me", input: "{}", observation: `{"run":${index}}` }] : [];
      return {
        kind: "complete",
        stage,
        prompt: buildReactPrompt({
          query,
          tools: shown,
          turns,
          ...(skillRules ? { skillRules } : {}),
          ...(errorContext ? { errorContext } : {}),
        }),
      };
    }
    case "solver":
      return {
        kind: "complete",
        stage,
        prompt: buildSolverPrompt({
          query,
          evidence: [{ source: "x", ok: true, text: `run ${index}` }],
          dataChars: 800,
        }),
      };
    case "jsonl":
      return {
        kind: "chat",
        stage,
        messages: [
          { role: "system", content: buildJsonlSystemPrompt(shown) },
          { role: "user", content: `${query}` },
          { role: "assistant", content: `run ${index}` },
        ],
      };
    case "native":
      return {
        kind: "chat",
        stage,
        messages: [
          { role: "user", content: query },
          { role: "assistant", content: `run ${index}` },
        ],
        tools: toChatTools(shown),
      };
    default:
      throw new Error(`no synthetic request for ${stage}`);
  }
}

interface Tally {
  chances: number;
  expected: number;
  drawn: number;
}

/** Two-sided normal quantile for p = 0.05 / 24. */
const Z_FAMILY = 3.08;

function wilson(successes: number, trials: number, z = Z_FAMILY): [number, number] {
  const share = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (share + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((share * (1 - share)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [centre - half, centre + half];
}

function tallyProfile(profile: string, requests: number): Map<SimErrorType, Tally> {
  const tallies = new Map<SimErrorType, Tally>(
    [...CALL_ERROR_TYPES, ...REQUEST_ERROR_TYPES].map((type) => [type, { chances: 0, expected: 0, drawn: 0 }]),
  );
  for (let index = 0; index < requests; index++) {
    const engine = new SimEngine({ profile, seed: index, gold: TEST_ITEMS });
    const { rates, decision } = engine.analyse(syntheticRequest(index));
    for (const type of REQUEST_ERROR_TYPES) {
      const tally = tallies.get(type)!;
      tally.chances += 1;
      tally.expected += rates.request[type];
      if (decision.request === type) tally.drawn += 1;
    }
    // Calls are written only when the request-level draw did not turn the answer into a direct one.
    decision.calls.forEach((drawn, call) => {
      for (const type of CALL_ERROR_TYPES) {
        const tally = tallies.get(type)!;
        tally.chances += 1;
        tally.expected += rates.calls[call]?.[type] ?? 0;
        if (drawn === type) tally.drawn += 1;
      }
    });
  }
  return tallies;
}

describe.each([
  ["slm-3b", 12_000],
  ["chaos", 4_000],
])("sim:%s: realised mistake frequencies match the effective rates", (profile, requests) => {
  const tallies = tallyProfile(profile, requests);

  it.each([...CALL_ERROR_TYPES, ...REQUEST_ERROR_TYPES])("%s", (type) => {
    const { chances, expected, drawn } = tallies.get(type)!;
    const meanRate = expected / chances;
    expect(meanRate, "the type is exercised").toBeGreaterThan(0);
    expect(drawn, "the type is drawn").toBeGreaterThan(0);
    const [low, high] = wilson(drawn, chances);
    expect(meanRate, `${drawn}/${chances} drawn, mean effective rate ${meanRate}`).toBeGreaterThanOrEqual(low);
    expect(meanRate, `${drawn}/${chances} drawn, mean effective rate ${meanRate}`).toBeLessThanOrEqual(high);
  });
});

describe("sim:oracle", () => {
  it("draws no mistake at all", () => {
    const tallies = tallyProfile("oracle", 2_000);
    expect([...tallies.values()].every((tally) => tally.drawn === 0 && tally.expected === 0)).toBe(true);
  });
});
