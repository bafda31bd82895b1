import { describe, expect, it } from "vitest";
import { toolCallCheckProblems } from "../../../../src/bench/dataset/crosscheck.ts";
import { matchToolResult, readOnlyIn, runToolCallCheck } from "../../../../src/bench/dataset/state-checks.ts";
import type { DatasetItem, ToolCallStateCheck } from "../../../../src/bench/dataset/types.ts";
import { scoreState } from "../../../../src/bench/scoring/state.ts";
import type { Registry } from "../../../../src/mcp/registry.ts";
import type { ToolCallResult, ToolDefinition, ToolHost } from "../../../../src/tool-protocol/types.ts";

const listing = {
  text: 'Files: notes.txt, todo.md\n{"count": 2}',
  data: { count: 2, files: ["notes.txt", "todo.md"] },
};

describe("matchToolResult", () => {
  it.each([
    [{ contains: "notes.txt" }, true],
    [{ contains: "NOTES.TXT" }, false], // case-sensitive
    [{ contains: ["notes.txt", "todo.md"] }, true],
    [{ contains: ["notes.txt", "missing.md"] }, false],
    [{ equals: { count: 2, files: ["notes.txt", "todo.md"] } }, true],
    [{ equals: { count: 2 } }, false],
    [{ jsonpath: "$.files[1]", value: "todo.md" }, true],
    [{ jsonpath: "$.files[1]", value: "notes.txt" }, false],
    [{ jsonpath: "$.count" }, true],
    [{ jsonpath: "$.owner" }, false],
    [{ jsonpath: "$.files[?(@ === 'todo.md')]", value: "todo.md" }, true],
    [{ regex: "Files: \\w+\\.txt" }, true],
    [{ regex: "^todo" }, false],
    [{ contains: "todo.md", jsonpath: "$.count", value: 3 }, false],
  ])("%j → %s", (expect_, pass) => {
    expect(matchToolResult(expect_, listing).pass).toBe(pass);
  });

  it("says what did not match", () => {
    expect(matchToolResult({ jsonpath: "$.count", value: 3 }, listing).detail).toBe("$.count is 2, not 3");
  });
});

const tool = (name: string, server: string, readOnlyHint?: boolean): ToolDefinition => ({
  server,
  name,
  description: "",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  annotations: readOnlyHint === undefined ? {} : { readOnlyHint },
});
const tools = [tool("read_file", "fs", true), tool("write_file", "fs", false), tool("search_nodes", "memory")];

function host(answer: (name: string) => Partial<ToolCallResult>): ToolHost {
  return {
    listTools: () => tools,
    callTool: async (name) => ({ ok: true, text: "", attempts: [], durationMs: 0, ...answer(name) }),
  };
}

const readCheck = (expect: ToolCallStateCheck["expect"], negate?: boolean): ToolCallStateCheck => ({
  call: { server: "fs", tool: "read_file", args: { path: "a.txt" } },
  expect,
  ...(negate === undefined ? {} : { negate }),
});

describe("runToolCallCheck and the scorer", () => {
  it("matches the tool's result; negate inverts the item's requirement", async () => {
    const server = host(() => ({ text: "hello world", data: "hello world" }));
    const specs = [readCheck({ contains: "hello" }), readCheck({ contains: "bye" }, true)];
    const outcomes = await Promise.all(
      specs.map(async (spec) => ({ spec, ...(await runToolCallCheck(server, spec)) })),
    );
    expect(outcomes.map((outcome) => outcome.pass)).toEqual([true, false]);
    expect(scoreState(specs, outcomes)).toMatchObject({ ok: true, checks: [{ server: "fs", ok: true }, { ok: true }] });
  });

  it("matches a tool error's text (reading a file that is gone), but a call that could not be made fails even negated", async () => {
    const gone = host(() => ({ ok: false, text: "ENOENT: no such file", error: { kind: "tool_error", message: "" } }));
    expect(await runToolCallCheck(gone, readCheck({ contains: "ENOENT" }))).toMatchObject({ pass: true });
    const down = host(() => ({ ok: false, text: "Connection closed", error: { kind: "transient", message: "" } }));
    const spec = readCheck({ contains: "hello" }, true);
    const outcome = await runToolCallCheck(down, spec);
    expect(outcome).toMatchObject({ pass: false, notRun: true });
    expect(scoreState([spec], [{ spec, ...outcome }])?.ok).toBe(false);
    const elsewhere = { ...spec, call: { ...spec.call, server: "memory" } };
    expect(await runToolCallCheck(down, elsewhere)).toMatchObject({
      notRun: true,
      detail: 'server "memory" has no tool "read_file"',
    });
  });
});

describe("tool-call checks against the registry", () => {
  const item = (check: ToolCallStateCheck): DatasetItem => ({
    id: "fs-001",
    query: "Write hello to a.txt",
    category: "single",
    servers: ["fs"],
    route: "rewoo",
    calls: [{ tool: "write_file", args: { path: "a.txt" } }],
    order: "sequence",
    state: [check],
    difficulty: "easy",
    tags: ["write"],
  });
  const registry: Registry = {
    file: "byo.json",
    baseDir: "/",
    servers: [
      { name: "fs", purpose: "files", transport: "stdio", command: "node" },
      { name: "memory", purpose: "graph", transport: "stdio", command: "node", read_only_tools: ["search_nodes"] },
    ],
  };
  const problems = (check: ToolCallStateCheck) =>
    toolCallCheckProblems([{ item: item(check), file: "d.jsonl", line: 3 }], tools, readOnlyIn(registry)).map(
      (problem) => problem.message,
    );

  it("accepts a read-only tool, by annotation or by the registry's read_only_tools", () => {
    expect(problems(readCheck({ contains: "hello" }))).toEqual([]);
    const declared = {
      call: { server: "memory", tool: "search_nodes", args: { path: "x" } },
      expect: { contains: "x" },
    };
    expect(problems(declared)).toEqual([]);
  });

  it("rejects a tool that is not read-only, a tool of another server, and args that break the schema", () => {
    const write = {
      ...readCheck({ contains: "hello" }),
      call: { server: "fs", tool: "write_file", args: { path: "a" } },
    };
    expect(problems(write)).toEqual([
      "state[0] fs.write_file: a state check must call a read-only tool (readOnlyHint, or the registry entry's read_only_tools)",
    ]);
    expect(problems({ ...write, call: { server: "memory", tool: "read_file", args: { path: "a" } } })).toEqual([
      'state[0] memory.read_file: server "memory" lists no tool "read_file"',
    ]);
    expect(
      problems({ ...readCheck({ contains: "x" }), call: { server: "fs", tool: "read_file", args: {} } })[0],
    ).toMatch(/args do not fit the tool's inputSchema/);
  });
});
