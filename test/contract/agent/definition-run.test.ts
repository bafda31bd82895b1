/**
 * An agent definition in a run: its filled-in prompt replaces the built-in one of each protocol it can
 * drive, the run records what it held, its `tools:` allow-list holds for calls too, and a template that
 * fails at run time ends the run with an error in the trace, not an exception.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { chatSpec, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../src/agent/agent.ts";
import { type AgentDefinition, definitionHash } from "../../../src/agent/definition.ts";
import type { ConversationTurn } from "../../../src/agent/history.ts";
import { type Script, ScriptedModel } from "../../../src/models/scripted.ts";

let host: MemoryToolHost;
beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
  return () => host.close();
});

function definition(protocol: AgentDefinition["protocol"], body: string, extra: Partial<AgentDefinition> = {}) {
  const text = `---\nprotocol: ${protocol}\n---\n${body}`;
  return {
    name: "mine",
    file: "agents/mine.md",
    protocol,
    text,
    hash: definitionHash(text),
    bodyLine: 4,
    fileChars: { each: 100, total: 100 },
    files: [],
    ...extra,
  } satisfies AgentDefinition;
}

async function run(script: Script, def: AgentDefinition, history?: ConversationTurn[]) {
  host.reset();
  const model = new ScriptedModel(script);
  const result = await runAgent("Who am I on GitHub?", {
    model,
    tools: host,
    // the configuration's own strategy gives way to the definition's protocol
    config: { strategy: "auto", definition: def },
    context: "Today is Monday, March 16, 2026, 09:30 UTC.",
    ...(history ? { history } : {}),
  });
  return { result, model };
}

describe("a definition drives its protocol with its own prompt", () => {
  it("native: the system message is the filled-in template", async () => {
    const def = definition("native", "Support bot. {{ date }}\n{{ tools }}");
    const { result, model } = await run({ native: [{ text: "You are octo-dev." }] }, def);
    model.assertFinished();
    expect(result.path).toBe("native");
    const system = result.modelCalls[0]?.messages?.[0];
    expect(system?.role).toBe("system");
    expect(system?.content).toMatch(/^Support bot\. Today is Monday, March 16, 2026, 09:30 UTC\.\n- list_issues: /);
    expect(result.definition).toMatchObject({ name: "mine", hash: def.hash, protocol: "native" });
    expect(result.definition?.promptChars).toBe(system?.content.length);
  });

  it("jsonl: the system message is the template, and the protocol's parser reads the replies", async () => {
    const def = definition("jsonl", "JSON lines only.\n{{ tools }}");
    const { result } = await run(
      {
        jsonl: ['{"type":"tool_call","name":"get_me","arguments":{}}', '{"type":"final_answer","content":"octo-dev"}'],
      },
      def,
    );
    const system = result.modelCalls[0]?.messages?.[0]?.content ?? "";
    expect(system.split("\n")[0]).toBe("JSON lines only.");
    expect(system).toContain('{"name":"get_me"');
    expect(result.toolCalls.map((call) => [call.tool, call.ok])).toEqual([["get_me", true]]);
    expect(result.answer).toBe("octo-dev");
  });

  it("react: the template replaces the instructions; the question and the turns follow it", async () => {
    const def = definition("react", "Tools:\n{{ tools }}\nEarlier:\n{{ history }}");
    const { result } = await run(
      {
        react: ["Thought: look me up\nAction: get_me\nAction Input: {}", "Final Answer: octo-dev"],
      },
      def,
      [{ user: "hello", calls: [], answer: "hi" }],
    );
    expect(result.path).toBe("react");
    const second = result.modelCalls[1]?.prompt ?? "";
    expect(second.startsWith("Tools:\n")).toBe(true);
    expect(second).toContain(
      "Earlier:\nUser: hello\nAssistant: hi\n\nQuestion: Who am I on GitHub?\nThought: look me up",
    );
    expect(second).not.toContain("Use this format:");
    expect(result.answer.toLowerCase()).toBe("octo-dev");
  });
});

describe("settings and failures", () => {
  it("tools: only the listed tools are shown, and a call to another is refused", async () => {
    const def = definition("native", "x", { tools: ["list_issues"] });
    const { result } = await run(
      { native: [{ toolCalls: [{ id: "c1", name: "get_me", arguments: {} }] }, { text: "cannot" }] },
      def,
    );
    expect(result.modelCalls[0]?.tools).toEqual(["list_issues"]);
    expect(result.toolCalls[0]).toMatchObject({ tool: "get_me", ok: false, error: { kind: "unknown_tool" } });
  });

  it("a render failure at run time ends the run with the error in the trace", async () => {
    // the loader's trial render would catch this; a definition built by hand can still carry it
    const def = definition("native", "first\n{{ files[0].content }}");
    const { result } = await run({}, def);
    expect(result.error).toMatchObject({ stage: "native", code: "TEMPLATE_RENDER_FAILED" });
    expect(result.error?.message).toMatch(/^agents\/mine\.md:5:4: /);
    expect(result.modelCalls).toEqual([]);
  });
});
