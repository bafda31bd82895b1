/**
 * Agent definition files: the front matter, each template variable (date, tools in each protocol's form,
 * history, files), the cap on injected files, and every error as one line naming file:line:column.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "../agent/definition.ts";
import { type DefinitionPromptInput, definitionPrompt } from "../agent/definition-prompt.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { loadAgentDefinition, parseAgentDefinition, withFiles } from "./agent-definition.ts";
import { AgentDefinitionError } from "./errors.ts";

const TOOL: ToolDefinition = {
  name: "list_issues",
  description: "List issues of a repository. Paginated.",
  server: "github",
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: "object",
    properties: { owner: { type: "string" }, state: { type: "string", enum: ["OPEN", "CLOSED"] } },
    required: ["owner", "state"],
  },
};

function definition(protocol: string, body: string, extra = ""): AgentDefinition {
  return parseAgentDefinition(`---\nprotocol: ${protocol}\n${extra}---\n${body}`, "agents/t.md").definition;
}

function render(def: AgentDefinition, input: Partial<DefinitionPromptInput> = {}): string {
  return definitionPrompt({ definition: def, tools: [TOOL], examples: "concrete", ...input }).prompt;
}

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-definition-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The one-line message an InputError carries, checked for its class too. */
function failure(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentDefinitionError);
    const message = (error as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    return message;
  }
  throw new Error("expected an AgentDefinitionError");
}

describe("front matter", () => {
  it("names the protocol, the settings and the template's first line; the hash is the text's", () => {
    const text =
      "---\nprotocol: react\nname: helper\ntools: [list_issues]\nlimits: { react_max_iterations: 3 }\n---\nHi";
    const loaded = parseAgentDefinition(text, "agents/x.md");
    expect(loaded.definition).toMatchObject({ name: "helper", protocol: "react", tools: ["list_issues"], bodyLine: 7 });
    expect(loaded.axes).toEqual({ strategy: "react", limits: { reactMaxIterations: 3 } });
    expect(loaded.definition.text).toBe(text);
    expect(parseAgentDefinition(text, "agents/y.md").definition.hash).toBe(loaded.definition.hash);
    expect(parseAgentDefinition(`${text}!`, "agents/x.md").definition.hash).not.toBe(loaded.definition.hash);
  });

  it("takes the name from the file when the front matter gives none", () => {
    expect(definition("native", "x").name).toBe("t");
  });

  it.each([
    [
      "an unknown protocol",
      "---\nprotocol: chat\n---\nx",
      /^agents\/t\.md:2:1: protocol: expected one of native, jsonl, react$/,
    ],
    ["no protocol", "---\nname: x\n---\nx", /^agents\/t\.md:1:1: protocol: /],
    ["an unknown key", "---\nprotocol: jsonl\nmodel: x\n---\nx", /^agents\/t\.md:3:1: .*unknown key model/],
    ["no front matter", "Just a prompt", /^agents\/t\.md:1:1: expected front matter between two --- lines/],
    ["broken YAML", "---\nprotocol: [jsonl\n---\nx", /^agents\/t\.md:\d+:\d+: not valid YAML/],
  ])("refuses %s with one line naming file:line:column", (_what, text, message) => {
    expect(failure(() => parseAgentDefinition(text, "agents/t.md"))).toMatch(message);
  });

  it("refuses a missing file, naming it", () => {
    expect(failure(() => loadAgentDefinition("/nonexistent/agent.md", "agents/none.md"))).toMatch(
      /^agents\/none\.md: cannot read the agent definition \(ENOENT/,
    );
  });
});

describe("template variables", () => {
  it("date: the suite clock's line, empty without a clock", () => {
    const def = definition("native", "Now: {{ date }}|");
    expect(render(def, { context: "Today is Monday, March 16, 2026, 09:30 UTC." })).toBe(
      "Now: Today is Monday, March 16, 2026, 09:30 UTC.|",
    );
    expect(render(def)).toBe("Now: |");
  });

  it("tools: native lists names and descriptions (the schemas go to the API)", () => {
    expect(render(definition("native", "{{ tools }}"))).toBe("- list_issues: List issues of a repository. Paginated.");
  });

  it("tools: jsonl gives one JSON Schema object per line", () => {
    const line = render(definition("jsonl", "{{ tools }}"));
    expect(JSON.parse(line)).toEqual({ name: TOOL.name, description: TOOL.description, parameters: TOOL.inputSchema });
  });

  it("tools: react gives the ReAct tool lines, concrete or with OnsetLab's placeholders", () => {
    const def = definition("react", "{{ tools }}");
    expect(render(def)).toBe('list_issues(owner="octocat", state="OPEN"|"CLOSED") - List issues of a repository.');
    expect(render(def, { examples: "placeholders" })).toBe(
      'list_issues(owner="...", state="OPEN" or "CLOSED") - List issues of a repository. Paginated.',
    );
  });

  it("history: empty for a single turn, the earlier turns as User/Assistant lines otherwise", () => {
    const def = definition("react", "{% if history == '' %}single{% else %}{{ history }}{% endif %}");
    expect(render(def)).toBe("single");
    expect(
      render(def, {
        history: [
          {
            user: "Open issues in acme/webapp?",
            calls: [{ tool: "list_issues", args: { owner: "acme", repo: "webapp" }, ok: true, text: "[...]" }],
            answer: "One: Login fails.",
          },
        ],
      }),
    ).toBe("User: Open issues in acme/webapp?\nAssistant: One: Login fails.");
  });

  it("files: each file's name, path and content where the template asks, counted in the prompt", () => {
    const dir = folder({ "policy.md": "Never close without a PR.", "faq.md": "Q: where? A: #support" });
    const def = withFiles(
      definition("jsonl", "{% for file in files %}[{{ file.name }}] {{ file.content }}\n{% endfor %}"),
      [join(dir, "policy.md"), join(dir, "faq.md")],
      ["docs/policy.md", "docs/faq.md"],
    );
    const { prompt, use } = definitionPrompt({ definition: def, tools: [TOOL], examples: "concrete" });
    expect(prompt).toBe("[policy.md] Never close without a PR.\n[faq.md] Q: where? A: #support\n");
    expect(def.files.map((file) => file.path)).toEqual(["docs/policy.md", "docs/faq.md"]);
    expect(use.files).toEqual([
      { path: "docs/policy.md", chars: 25, injectedChars: 25, truncated: false, estimatedTokens: 9 },
      { path: "docs/faq.md", chars: 21, injectedChars: 21, truncated: false, estimatedTokens: 7 },
    ]);
    expect(use.promptChars).toBe(prompt.length);
  });

  it("files: a file the template does not read costs nothing in the prompt", () => {
    const dir = folder({ "a.md": "unused text" });
    const def = withFiles(definition("native", "no files here"), [join(dir, "a.md")]);
    expect(definitionPrompt({ definition: def, tools: [], examples: "concrete" }).use.files[0]).toMatchObject({
      chars: 11,
      injectedChars: 0,
    });
  });

  it("files: capped per file and in all, the cut said in the text", () => {
    const dir = folder({ "a.md": "a".repeat(30), "b.md": "b".repeat(30), "c.md": "c".repeat(30) });
    const def = withFiles(
      definition("native", "{% for f in files %}{{ f.content }}|{% endfor %}", "file_chars: { each: 20, total: 50 }\n"),
      ["a.md", "b.md", "c.md"].map((name) => join(dir, name)),
    );
    expect(def.files.map((file) => [file.truncated, file.chars])).toEqual([
      [true, 30],
      [true, 30],
      [true, 30],
    ]);
    expect(def.files[0]!.content).toBe(`${"a".repeat(20)}\n[cut: 20 of 30 characters]`);
    // the first two used up 20 + 20 + their notes: the third gets what is left of the 50
    expect(def.files[2]!.content.startsWith("c".repeat(Math.max(0, 50 - def.files[0]!.content.length * 2)))).toBe(true);
    expect(def.files[2]!.content.length).toBeLessThan(def.files[0]!.content.length);
  });

  it("files: a missing file is one line naming it", () => {
    expect(failure(() => withFiles(definition("native", "x"), ["/nonexistent/notes.md"], ["notes.md"]))).toMatch(
      /^--files notes\.md: cannot read it \(ENOENT/,
    );
  });
});

describe("template errors name the file's own line and column", () => {
  it("an unknown variable, even in a branch no render takes", () => {
    const body = "Hello.\n{% if files != empty %}\n  See {{ policy }}.\n{% endif %}";
    expect(failure(() => definition("jsonl", body))).toBe(
      'agents/t.md:6:10: unknown variable "policy"; a template can read date, tools, history, files',
    );
  });

  it("a syntax error", () => {
    expect(failure(() => definition("react", "line one\n{{ tools "))).toMatch(
      /^agents\/t\.md:5:1: output "\{\{ tools " not closed$/,
    );
    expect(failure(() => definition("react", "{% for f in files %}x"))).toMatch(
      /^agents\/t\.md:4:1: tag .*for.* not closed/,
    );
  });

  it("an unknown field of a file, found by rendering with the files", () => {
    expect(failure(() => definition("native", "ok\n{% for f in files %}{{ f.text }}{% endfor %}"))).toBe(
      "agents/t.md:5:24: undefined variable: f.text",
    );
  });

  it("an unknown filter", () => {
    expect(failure(() => definition("native", "{{ tools | shout }}"))).toMatch(
      /^agents\/t\.md:4:1: undefined filter: shout$/,
    );
  });

  it("a template cannot pull in other files from disk", () => {
    expect(failure(() => definition("native", "{% include 'secrets.txt' %}"))).toMatch(
      /^agents\/t\.md:4:1: .*secrets\.txt/,
    );
  });
});
