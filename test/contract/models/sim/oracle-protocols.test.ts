/**
 * sim:oracle in every protocol, read back with the agent's own prompt builders and parsers: the output
 * parses into exactly the gold calls, loops continue from what the prompt shows, and answers quote only
 * tool data the prompt holds.
 */

import { describe, expect, it } from "vitest";
import { buildJsonlSystemPrompt, parseJsonl } from "../../../../src/agent/jsonl.ts";
import { NATIVE_SYSTEM_PROMPT, toChatTools } from "../../../../src/agent/native.ts";
import { parsePlan } from "../../../../src/agent/plan-parser.ts";
import { buildPlannerPrompt, PLAN_PREFIX } from "../../../../src/agent/planner.ts";
import { buildReactPrompt, parseReactOutput, type ReactTurn } from "../../../../src/agent/react.ts";
import { buildRouterPrompt, parseRouterAnswer } from "../../../../src/agent/router.ts";
import { SKILLS } from "../../../../src/agent/skills/catalog.ts";
import { skillRulesText } from "../../../../src/agent/skills/detect.ts";
import { buildSolverPrompt, cleanAnswer } from "../../../../src/agent/solver.ts";
import { SAMPLE_TOOLS, sampleTool } from "../../../../src/agent/testing/definitions.ts";
import { LACKING_TOOL } from "../../../../src/models/sim/answer.ts";
import { goldCalls } from "../../../../src/models/sim/gold.ts";
import { createSimProvider } from "../../../../src/models/sim/provider.ts";
import { passesAnswerCheck, TEST_ITEMS, testItem } from "../../../../src/models/sim/testing/items.ts";
import type { ChatMessage } from "../../../../src/models/types.ts";

const oracle = createSimProvider({ profile: "oracle", gold: TEST_ITEMS });
const withCalls = TEST_ITEMS.filter((item) => item.calls.length > 0);
const withoutCalls = TEST_ITEMS.filter((item) => item.calls.length === 0);
const githubRules = skillRulesText(SKILLS.find((skill) => skill.name === "github") ?? SKILLS[0]!);

const LOGIN_FAILS = '{"issues":[{"number":1,"title":"Login fails","state":"open"}],"totalCount":1}';
const CHANNELS = '{"channels":[{"id":"C01GENERAL","name":"general"}]}';
const ME = '{"login":"octo-dev","name":"Octo Dev"}';

describe("router", () => {
  it("answers ACTION for items with gold calls and DIRECT for the others", async () => {
    for (const item of TEST_ITEMS) {
      const { text } = await oracle.complete({ stage: "router", prompt: buildRouterPrompt(item.query, SAMPLE_TOOLS) });
      expect(parseRouterAnswer(text), item.id).toBe(item.calls.length > 0 ? "ACTION" : "DIRECT");
    }
  });
});

describe("planner", () => {
  it("writes the gold calls, continuing the prompt's #E1 =, with or without skill rules", async () => {
    for (const item of withCalls) {
      for (const skillRules of [undefined, githubRules]) {
        const prompt = buildPlannerPrompt({
          query: item.query,
          tools: SAMPLE_TOOLS,
          ...(skillRules ? { skillRules } : {}),
        });
        const { text } = await oracle.complete({ stage: "planner", prompt });
        const plan = parsePlan(`${PLAN_PREFIX}${text}`, SAMPLE_TOOLS);
        expect(
          plan.steps.map(({ tool, args }) => ({ tool, args })),
          item.id,
        ).toEqual(goldCalls(item));
        expect(
          plan.steps.filter((step) => step.error),
          item.id,
        ).toEqual([]);
        expect(plan.notes, item.id).toEqual([]);
      }
    }
  });

  it("writes no call, and says what it lacks, when the filter left a gold tool out of the prompt", async () => {
    const item = testItem("sim-parallel");
    const prompt = buildPlannerPrompt({ query: item.query, tools: [sampleTool("slack_list_channels")] });
    const { text } = await oracle.complete({ stage: "planner", prompt });
    expect(parsePlan(`${PLAN_PREFIX}${text}`, SAMPLE_TOOLS).steps).toEqual([]);
    const react = buildReactPrompt({ query: item.query, tools: [sampleTool("slack_list_channels")], turns: [] });
    const turn = parseReactOutput((await oracle.complete({ stage: "react", prompt: react })).text);
    expect(turn.action).toBeUndefined();
    expect(turn.final).toBe(LACKING_TOOL);
  });

  it("writes no step for direct, irrelevant and missing_info items", async () => {
    for (const item of withoutCalls) {
      const { text } = await oracle.complete({
        stage: "planner",
        prompt: buildPlannerPrompt({ query: item.query, tools: SAMPLE_TOOLS }),
      });
      expect(parsePlan(`${PLAN_PREFIX}${text}`, SAMPLE_TOOLS).steps, item.id).toEqual([]);
    }
  });
});

describe("ReAct", () => {
  const react = async (query: string, turns: ReactTurn[], errorContext?: string) => {
    const prompt = buildReactPrompt({ query, tools: SAMPLE_TOOLS, turns, ...(errorContext ? { errorContext } : {}) });
    const { text } = await oracle.complete({ stage: errorContext ? "fallback" : "react", prompt });
    return parseReactOutput(text);
  };

  it("takes the next gold call from the observations so far, then answers from them", async () => {
    const item = testItem("sim-sequence");
    const [first, second] = goldCalls(item);
    const turn1 = await react(item.query, []);
    expect({ tool: turn1.action, args: turn1.input }).toEqual(first);
    const done: ReactTurn = { thought: turn1.thought, action: "get_me", input: "{}", observation: ME };
    const turn2 = await react(item.query, [done]);
    expect({ tool: turn2.action, args: turn2.input }).toEqual(second);
    const posted = { thought: "", action: "slack_post_message", input: "{}", observation: '{"ok":true}' };
    const turn3 = await react(item.query, [done, posted]);
    expect(turn3.action).toBeUndefined();
    expect(passesAnswerCheck(item, cleanAnswer(turn3.final ?? ""))).toBe(true);
  });

  it("retries a call whose observation was an error", async () => {
    const item = testItem("sim-single");
    const failed = { thought: "", action: "list_issues", input: "{}", observation: "ERROR: missing owner" };
    const next = await react(item.query, [failed]);
    expect({ tool: next.action, args: next.input }).toEqual(goldCalls(item)[0]);
  });

  it("in the fallback, redoes only the steps the failed plan did not complete", async () => {
    const item = testItem("sim-sequence");
    const context = [
      `#E1 = get_me() -> ok: ${ME}`,
      '#E2 = slack_post_message(text="octo-dev") -> missing required parameter(s): channel_id',
    ].join("\n");
    const next = await react(item.query, [], context);
    expect({ tool: next.action, args: next.input }).toEqual(goldCalls(item)[1]);
  });

  it("answers at once for items without gold calls, from the gold check", async () => {
    for (const item of withoutCalls) {
      const turn = await react(item.query, []);
      expect(turn.action, item.id).toBeUndefined();
      expect(passesAnswerCheck(item, cleanAnswer(turn.final ?? "")), item.id).toBe(true);
    }
  });
});

describe("solver", () => {
  const solve = async (query: string, data: string[]) => {
    const evidence = data.map((text) => ({ source: "#E1 tool", ok: true, text }));
    const { text } = await oracle.complete({
      stage: "solver",
      prompt: buildSolverPrompt({ query, evidence, dataChars: 800 }),
    });
    return cleanAnswer(text);
  };

  it("quotes the expected strings the tool data holds", async () => {
    expect(
      passesAnswerCheck(testItem("sim-parallel"), await solve(testItem("sim-parallel").query, [LOGIN_FAILS, CHANNELS])),
    ).toBe(true);
    const read = '{"number":2,"title":"Dark mode","state":"closed","body":"Add a dark theme"}';
    expect(passesAnswerCheck(testItem("sim-read"), await solve(testItem("sim-read").query, [read]))).toBe(true);
  });

  it("never states what the tool data does not hold", async () => {
    const item = testItem("sim-parallel");
    const answer = await solve(item.query, [CHANNELS]);
    expect(answer.toLowerCase()).toContain("general");
    expect(answer).not.toContain("Login fails");
    expect(await solve(testItem("sim-single").query, [])).not.toContain("Login fails");
  });

  it("answers direct, irrelevant and missing_info items from their gold check", async () => {
    for (const item of withoutCalls) expect(passesAnswerCheck(item, await solve(item.query, [])), item.id).toBe(true);
  });
});

describe("jsonl", () => {
  const system: ChatMessage = { role: "system", content: buildJsonlSystemPrompt(SAMPLE_TOOLS) };

  it("writes independent gold calls together and sequenced ones one per turn", async () => {
    const parallel = testItem("sim-parallel");
    const reply = await oracle.chat({ stage: "jsonl", messages: [system, { role: "user", content: parallel.query }] });
    const events = parseJsonl(reply.text).events;
    expect(
      events.map((event) => (event.type === "tool_call" ? { tool: event.name, args: event.arguments } : event)),
    ).toEqual(goldCalls(parallel));

    const sequence = testItem("sim-sequence");
    const messages: ChatMessage[] = [system, { role: "user", content: sequence.query }];
    const first = await oracle.chat({ stage: "jsonl", messages });
    expect(parseJsonl(first.text).events).toEqual([{ type: "tool_call", name: "get_me", arguments: {} }]);
    messages.push({ role: "assistant", content: first.text });
    messages.push({
      role: "user",
      content: JSON.stringify({ type: "observation", name: "get_me", ok: true, content: ME }),
    });
    const second = await oracle.chat({ stage: "jsonl", messages });
    const [call] = parseJsonl(second.text).events;
    expect(call).toEqual({ type: "tool_call", name: "slack_post_message", arguments: goldCalls(sequence)[1]?.args });
  });

  it("ends with a final_answer that passes the check", async () => {
    const item = testItem("sim-single");
    const messages: ChatMessage[] = [
      system,
      { role: "user", content: item.query },
      { role: "assistant", content: "" },
      {
        role: "user",
        content: JSON.stringify({ type: "observation", name: "list_issues", ok: true, content: LOGIN_FAILS }),
      },
    ];
    const [event] = parseJsonl((await oracle.chat({ stage: "jsonl", messages })).text).events;
    expect(event?.type).toBe("final_answer");
    expect(passesAnswerCheck(item, event?.type === "final_answer" ? event.content : "")).toBe(true);
  });
});

describe("native", () => {
  const tools = toChatTools(SAMPLE_TOOLS);

  it("makes the gold calls as native tool calls, then answers in text", async () => {
    const item = testItem("sim-parallel");
    const messages: ChatMessage[] = [
      { role: "system", content: NATIVE_SYSTEM_PROMPT },
      { role: "user", content: item.query },
    ];
    const first = await oracle.chat({ stage: "native", messages, tools });
    expect(first.toolCalls.map(({ name, arguments: args }) => ({ tool: name, args }))).toEqual(goldCalls(item));
    expect(first.toolCalls.every((call) => /^call_[0-9a-f]{8}$/.test(call.id ?? ""))).toBe(true);
    messages.push({ role: "assistant", content: first.text, toolCalls: first.toolCalls });
    first.toolCalls.forEach((call, index) => {
      messages.push({ role: "tool", content: [LOGIN_FAILS, CHANNELS][index] ?? "", toolCallId: call.id as string });
    });
    const second = await oracle.chat({ stage: "native", messages, tools });
    expect(second.toolCalls).toEqual([]);
    expect(passesAnswerCheck(item, second.text)).toBe(true);
  });

  it("makes no call for a query that needs none", async () => {
    for (const item of withoutCalls) {
      const reply = await oracle.chat({ stage: "native", messages: [{ role: "user", content: item.query }], tools });
      expect(reply.toolCalls, item.id).toEqual([]);
      expect(passesAnswerCheck(item, reply.text), item.id).toBe(true);
    }
  });
});

describe("a prompt with no known item", () => {
  it("gets a plausible answer in the protocol's syntax and never an error", async () => {
    const query = "Tell me a joke about compilers";
    const router = await oracle.complete({ stage: "router", prompt: buildRouterPrompt(query, SAMPLE_TOOLS) });
    expect(parseRouterAnswer(router.text)).toBe("DIRECT");
    const plan = await oracle.complete({
      stage: "planner",
      prompt: buildPlannerPrompt({ query, tools: SAMPLE_TOOLS }),
    });
    expect(parsePlan(`${PLAN_PREFIX}${plan.text}`, SAMPLE_TOOLS).steps).toEqual([]);
    const react = await oracle.complete({
      stage: "react",
      prompt: buildReactPrompt({ query, tools: SAMPLE_TOOLS, turns: [] }),
    });
    expect(parseReactOutput(react.text).final).toMatch(/can't help/);
    const jsonl = await oracle.chat({ stage: "jsonl", messages: [{ role: "user", content: query }] });
    expect(parseJsonl(jsonl.text).events[0]?.type).toBe("final_answer");
    const native = await oracle.chat({ stage: "native", messages: [{ role: "user", content: query }], tools: [] });
    expect(native).toMatchObject({ toolCalls: [], text: expect.stringMatching(/can't help/) });
  });
});
