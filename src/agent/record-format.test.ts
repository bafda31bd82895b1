/**
 * The compact trace against what the model really got: the scripted model keeps every request the
 * agent sent, and the record (after a JSON round trip, as records.jsonl holds it) must rebuild each one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Script, ScriptedModel } from "../models/scripted.ts";
import type { ChatMessage } from "../models/types.ts";
import { runAgent } from "./agent.ts";
import { rankTools } from "./filter.ts";
import {
  commonPrefixLength,
  modelCallRequest,
  rankedToolScores,
  recordedToolScores,
  TraceReferenceError,
  toolCallText,
} from "./record-format.ts";
import { RunRecorder } from "./recorder.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";
import { MemoryToolHost } from "./testing/memory-host.ts";
import { chatSpec, hubSpec } from "./testing/servers.ts";
import type { AgentConfigInput, AgentResult, ModelCallRecord, ToolCallRecord } from "./types.ts";

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => host.reset());

async function run(query: string, script: Script, config: AgentConfigInput) {
  const model = new ScriptedModel(script);
  const result = await runAgent(query, { config, model, tools: host });
  model.assertFinished();
  // as a reader of records.jsonl sees it
  return { stored: JSON.parse(JSON.stringify(result)) as AgentResult, model };
}

/** Every rebuilt request equals the one the model received, field by field. */
function expectRequestsRebuilt(stored: AgentResult, model: ScriptedModel): void {
  expect(stored.modelCalls).toHaveLength(model.requests.length);
  stored.modelCalls.forEach((call, index) => {
    const sent = model.requests[index];
    const rebuilt = modelCallRequest(stored.modelCalls, call);
    if (sent?.kind === "complete") expect(rebuilt).toEqual({ prompt: sent.prompt });
    else {
      expect(rebuilt.messages).toEqual(JSON.parse(JSON.stringify(sent?.messages)));
      expect(rebuilt.tools).toEqual(sent?.tools?.map((tool) => tool.name));
    }
  });
}

const storedSize = (calls: readonly ModelCallRecord[]) => calls.map((call) => JSON.stringify(call).length);

describe("compact model calls", () => {
  it("native: each turn stores only its new messages and points at the earlier turn and its tools", async () => {
    const listIssues = { name: "list_issues", arguments: { owner: "acme", repo: "webapp", state: "OPEN" } };
    const { stored, model } = await run(
      "List the open issues in acme/webapp",
      {
        native: [
          { toolCalls: [{ id: "call_1", ...listIssues }] },
          { toolCalls: [{ id: "call_2", ...listIssues }] },
          { text: "One open issue: Login fails." },
        ],
      },
      { strategy: "native" },
    );
    expectRequestsRebuilt(stored, model);
    const [first, second, third] = stored.modelCalls;
    expect(first).toMatchObject({ messages: [{ role: "system" }, { role: "user" }] });
    expect(first?.tools).toHaveLength(6);
    expect(second).toMatchObject({ messagesFrom: { seq: 1, count: 2 }, toolsFrom: 1 });
    expect(second?.messages?.map((message) => message.role)).toEqual(["assistant", "tool"]);
    expect(second?.tools).toBeUndefined();
    expect(third).toMatchObject({ messagesFrom: { seq: 2, count: 4 }, toolsFrom: 2 });
    expect(third?.messages).toHaveLength(2);
  });

  it("jsonl: the system prompt is stored once however many turns there are", async () => {
    const { stored, model } = await run(
      "Who am I on GitHub?",
      {
        jsonl: [
          '{"type":"tool_call","name":"get_me","arguments":{}}',
          "no JSON here",
          '{"type":"final_answer","content":"You are octo-dev."}',
        ],
      },
      { strategy: "jsonl" },
    );
    expectRequestsRebuilt(stored, model);
    const system = model.requests[0]?.kind === "chat" ? model.requests[0].messages[0]?.content : undefined;
    expect(system?.length).toBeGreaterThan(500);
    const copies = stored.modelCalls.flatMap((call) => call.messages ?? []).filter((m) => m.content === system);
    expect(copies).toHaveLength(1);
    const [, second, third] = storedSize(stored.modelCalls);
    expect(third).toBeLessThan((second ?? 0) + 200);
  });

  it("react: a turn's prompt is stored as the text after the previous turn's", async () => {
    const { stored, model } = await run(
      "Who am I on GitHub?",
      {
        react: [
          " Check the user.\nAction: get_me\nAction Input: {}",
          " Once more.\nAction: get_me\nAction Input: {}",
          " I know.\nFinal Answer: octo-dev",
        ],
      },
      { strategy: "react" },
    );
    expectRequestsRebuilt(stored, model);
    const prompts = model.requests.map((request) => (request.kind === "complete" ? request.prompt : ""));
    const [, second, third] = stored.modelCalls;
    expect(second?.promptFrom).toEqual({ seq: 1, chars: prompts[0]?.length });
    expect(third?.promptFrom).toEqual({ seq: 2, chars: prompts[1]?.length });
    expect(third?.prompt).toBe(prompts[2]?.slice(prompts[1]?.length));
  });

  it("keeps the messages as they were sent when the caller changes its list afterwards", async () => {
    const model = new ScriptedModel({ native: ["a", "b"] });
    const recorder = new RunRecorder(model, new AbortController().signal, () => "stop");
    const messages: ChatMessage[] = [{ role: "user", content: "first" }];
    await recorder.chat("native", { stage: "native", messages });
    messages.push({ role: "assistant", content: "a" });
    await recorder.chat("native", { stage: "native", messages });
    (messages[0] as ChatMessage).content = "rewritten";
    const calls = recorder.modelCalls;
    expect(modelCallRequest(calls, calls[0] as ModelCallRecord).messages).toEqual([{ role: "user", content: "first" }]);
    expect(modelCallRequest(calls, calls[1] as ModelCallRecord).messages).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "a" },
    ]);
  });

  it("refuses a pointer at a later call or past the end of the request it names", () => {
    const base = { stage: "native", kind: "chat", output: "", startMs: 0, durationMs: 0 } as const;
    const first: ModelCallRecord = { ...base, seq: 1, messages: [{ role: "user", content: "hi" }] };
    const forward: ModelCallRecord = { ...base, seq: 2, messages: [], messagesFrom: { seq: 2, count: 1 } };
    const tooLong: ModelCallRecord = { ...base, seq: 2, messages: [], messagesFrom: { seq: 1, count: 3 } };
    expect(() => modelCallRequest([first, forward], forward)).toThrow(TraceReferenceError);
    expect(() => modelCallRequest([first, tooLong], tooLong)).toThrow(/messagesFrom takes 3 messages/);
  });
});

describe("compact tool calls", () => {
  it("leaves out text that is exactly the data as JSON, and gives it back", () => {
    const recorder = new RunRecorder(new ScriptedModel({}), new AbortController().signal, () => "stop");
    const common = {
      stage: "react",
      tool: "get_me",
      args: {},
      renamed: [],
      coerced: [],
      coercionProblems: [],
      attempts: [],
      startMs: 0,
      durationMs: 0,
    } satisfies Partial<ToolCallRecord>;
    const data = { login: "octo-dev", repos: [1, 2] };
    const compact = recorder.addToolCall({ ...common, ok: true, text: JSON.stringify(data), data });
    const pretty = recorder.addToolCall({ ...common, ok: true, text: JSON.stringify(data, null, 2), data });
    const failed = recorder.addToolCall({ ...common, ok: false, text: "not_found: no such user" });
    expect("text" in compact).toBe(false);
    expect(toolCallText(compact)).toBe('{"login":"octo-dev","repos":[1,2]}');
    expect(pretty.text).toBe(JSON.stringify(data, null, 2));
    expect(toolCallText(failed)).toBe("not_found: no such user");
  });
});

describe("compact tool ranking", () => {
  const available = SAMPLE_TOOLS.map((tool) => tool.name);

  it.each([
    ["a query that matches some tools", "list the open issues"],
    ["a query that matches none", "what is the capital of France"],
  ])("stores only what scored and rebuilds the whole ranking: %s", (_label, query) => {
    const ranking = rankTools(query, SAMPLE_TOOLS);
    const scores = recordedToolScores(ranking);
    expect(scores.length).toBeLessThan(ranking.length);
    expect(scores.length).toBeGreaterThan(0);
    expect(rankedToolScores({ available, scores })).toEqual(ranking);
  });

  it("an empty ranking stays empty (the filter did not run)", () => {
    expect(rankedToolScores({ available, scores: [] })).toEqual([]);
  });
});

describe("commonPrefixLength", () => {
  it("finds where two long strings part, across block boundaries", () => {
    const shared = "x".repeat(700);
    expect(commonPrefixLength(`${shared}abc`, `${shared}abd`)).toBe(702);
    expect(commonPrefixLength(shared, `${shared}more`)).toBe(700);
    expect(commonPrefixLength("abc", "xbc")).toBe(0);
  });
});
