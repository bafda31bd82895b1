/**
 * A user's own servers, brought in wrong (in process: the same program bin.ts runs, the same exit codes):
 * registry entries with missing fields, unknown reset kinds, a fixture folder that does not exist, a name in
 * two registries, a server that exits at start, prints garbage on stdout or never answers, a state check on a
 * write tool — each one clear line and exit 2; a reset command that fails during the run is a run error
 * (exit 1) that keeps the records already made. And a user's server named like a mock is never swapped.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistries } from "../../src/mcp/registry.ts";
import { REPO_ROOT } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { useTempResults } from "../support/temp-results.ts";

// the results folder of this test (read when a run is written, not at import)
const { root, results } = useTempResults("onsetlab-byo-bad-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILESYSTEM = join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const MEMORY = join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

let files = 0;
const file = (name: string, text: string) => {
  const path = join(root, `${files++}-${name}`);
  writeFileSync(path, text);
  return path;
};
const registry = (...servers: Record<string, unknown>[]) => file("registry.json", JSON.stringify({ servers }));
const script = (text: string) => file("server.mjs", text);
const server = (changes: Record<string, unknown>) => ({
  name: "mine",
  purpose: "a server of the user's",
  transport: "stdio",
  command: "node",
  ...changes,
});
const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error: "));

describe("bad registry entries: one line naming the file, the entry and the field, exit 2", () => {
  it.each([
    ["a missing command", server({ command: undefined }), 'servers[0] (mine): field "command" is required'],
    [
      "an empty purpose (a missing one is taken from the server)",
      server({ purpose: "" }),
      'servers[0] (mine): field "purpose" must be a non-empty string',
    ],
    [
      "an unknown reset kind",
      server({ reset: "wipe" }),
      'field "reset" must be one of restart, fixture, command, none',
    ],
    [
      "a fixture without its folder",
      server({ reset: "fixture" }),
      'field "fixture_dir" is required with reset "fixture"',
    ],
    ["a fixture folder that does not exist", server({ reset: "fixture", fixture_dir: "nope" }), "nope is not a folder"],
    ["a command reset without its command", server({ reset: "command" }), 'field "reset_command" is required'],
  ])("%s", async (_, entry, expected) => {
    const path = registry(entry);
    const outcome = await runInProcess(["mock", "list", "--registry", path]);
    expect(outcome.code).toBe(2);
    expect(errorLines(outcome.stderr)).toHaveLength(1);
    expect(outcome.stderr).toContain(path);
    expect(outcome.stderr).toContain(expected);
  });

  it("a server name in two registries names both files", async () => {
    const a = registry(server({ args: ["a.mjs"] }));
    const b = registry(server({ args: ["b.mjs"] }));
    const outcome = await runInProcess(["mock", "list", "--registry", a, "--registry", b]);
    expect(outcome.code).toBe(2);
    expect(errorLines(outcome.stderr)).toEqual([
      `error: server "mine" is declared in both ${a} and ${b}; rename one of them`,
    ]);
  });
});

it("a bad --shuffle seed is one line naming the flag, exit 2", async () => {
  const outcome = await runInProcess(["bench", "--model", "sim:oracle", "--shuffle", "soon"]);
  expect(outcome.code).toBe(2);
  expect(errorLines(outcome.stderr)).toEqual(['error: --shuffle must be a whole number ≥ 0, not "soon"']);
});

describe("servers that fail to start: what failed, the command line, the server's own stderr; exit 2", () => {
  it("one that exits shows its last 40 stderr lines, secrets redacted", async () => {
    process.env.BYO_TEST_SECRET = "hunter2-very-secret";
    const exits = script(
      [
        "for (let i = 1; i <= 50; i++) console.error('log line ' + i);",
        "console.error('using ' + process.env.BYO_TEST_SECRET + ' and token ghp_abcdefghijklmnopqrstuvwxyz0123');",
        "console.error(\"Error: Cannot find module 'left-pad'\");",
        "process.exit(1);",
      ].join("\n"),
    );
    const outcome = await runInProcess([
      "mock",
      "list",
      "--registry",
      registry(server({ args: [exits, "--flag"], env: ["BYO_TEST_SECRET"] })),
    ]);
    delete process.env.BYO_TEST_SECRET;
    expect(outcome.code).toBe(2);
    const [first] = errorLines(outcome.stderr);
    expect(first).toContain('server "mine" did not start: it exited before the MCP handshake; command: node');
    expect(first).toContain(`${exits} --flag`);
    expect(outcome.stderr).toContain("Cannot find module 'left-pad'");
    expect(outcome.stderr).toContain("log line 13");
    expect(outcome.stderr).not.toContain("log line 12\n");
    expect(outcome.stderr).not.toContain("hunter2-very-secret");
    expect(outcome.stderr).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123");
    expect(outcome.stderr).toContain("using [redacted] and token [redacted]");
  });

  it("one that prints garbage on stdout fails at once, saying so", async () => {
    const garbage = script("console.log('Server ready on stdio!'); setInterval(() => {}, 1000);");
    const started = performance.now();
    const outcome = await runInProcess(["mock", "list", "--registry", registry(server({ args: [garbage] }))]);
    expect(outcome.code).toBe(2);
    expect(errorLines(outcome.stderr)[0]).toContain("it printed something that is not JSON-RPC on stdout");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("one that never answers stops at its start_timeout_s", async () => {
    const silent = script("process.stdin.resume(); console.error('waiting for a license server');");
    const outcome = await runInProcess([
      "mock",
      "list",
      "--registry",
      registry(server({ args: [silent], start_timeout_s: 1 })),
    ]);
    expect(outcome.code).toBe(2);
    expect(errorLines(outcome.stderr)[0]).toContain("no answer to the MCP handshake within 1 s");
    expect(outcome.stderr).toContain("waiting for a license server");
  });
});

describe("a user's servers in a run", () => {
  const dataset = (name: string, ...items: Record<string, unknown>[]) => {
    const path = file(`${name}.jsonl`, items.map((item) => `${JSON.stringify(item)}\n`).join(""));
    return path;
  };
  const memoryItem = (id: string, state: Record<string, unknown>[]) => ({
    id,
    query: `Delete the entity Acme from the knowledge graph (${id}).`,
    category: "single",
    servers: ["memory"],
    route: "rewoo",
    calls: [{ tool: "delete_entities", args: { entityNames: [["Acme"]] } }],
    order: "sequence",
    state,
    difficulty: "easy",
    tags: ["write"],
  });
  const readGraph = { call: { server: "memory", tool: "read_graph", args: {} }, expect: { contains: '"Alice"' } };
  const seed =
    '{"type":"entity","name":"Alice","entityType":"person","observations":[]}\n{"type":"entity","name":"Acme","entityType":"company","observations":[]}\n';

  /** The memory server over one file, put back by a reset command that fails after `works` runs. */
  const memoryRegistry = (works: number) => {
    const dir = join(root, `memory-${files++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "seed.jsonl"), seed);
    writeFileSync(
      join(dir, "reset.mjs"),
      [
        "import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';",
        "process.chdir(new URL('.', import.meta.url).pathname);",
        "const runs = existsSync('runs') ? Number(readFileSync('runs', 'utf8')) + 1 : 1;",
        "writeFileSync('runs', String(runs));",
        `if (runs > ${works}) { console.error('reset failed: the graph file is locked'); process.exit(3); }`,
        "copyFileSync('seed.jsonl', 'graph.jsonl');",
      ].join("\n"),
    );
    return file(
      "registry.json",
      JSON.stringify({
        servers: [
          server({
            name: "memory",
            args: [MEMORY],
            env: { MEMORY_FILE_PATH: join(dir, "graph.jsonl") },
            reset: "command",
            reset_command: ["node", `${dir}/reset.mjs`],
          }),
        ],
      }),
    );
  };
  const bench = (registryFile: string, datasetFile: string) =>
    runInProcess([
      "bench",
      "--registry",
      registryFile,
      "--dataset",
      datasetFile,
      "--model",
      "sim:oracle",
      "--config",
      "native",
      "--concurrency",
      "2",
      "--json",
    ]);

  it("a reset command puts the data back before every task (and the run says queries go one at a time)", async () => {
    const outcome = await bench(
      memoryRegistry(99),
      dataset("twice", memoryItem("mem-a", [readGraph]), memoryItem("mem-b", [readGraph])),
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain(
      "warning: server memory reset by a command (state on disk, shared): queries run one at a time",
    );
    const { runId } = JSON.parse(outcome.stdout) as { runId: string };
    const records = readJsonl<{ itemId: string; score: { taskSuccess: boolean }; session: { resets?: object } }>(
      join(results, runId, RUN_FILES.records),
    ).rows;
    // the second deletion found Acme again: the command had put it back
    expect(records.map((record) => [record.score.taskSuccess, record.session.resets ?? null])).toEqual([
      [true, null],
      [true, { memory: "command" }],
    ]);
  });

  it("agent --registry runs a dataset item against the user's server and scores it as the bench does", async () => {
    const outcome = await runInProcess([
      "agent",
      "--item",
      "mem-a",
      "--registry",
      memoryRegistry(99),
      "--dataset",
      dataset("agent", memoryItem("mem-a", [readGraph])),
      "--model",
      "sim:oracle",
      "--config",
      "native",
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain("✓ task success");
    expect(outcome.stdout).toMatch(/state ✓ read_graph → contains "\\"Alice\\"" on memory/);
  });

  it("a reset command that fails mid-run is a run error (exit 1) naming the server; the finished task is kept", async () => {
    const outcome = await bench(
      memoryRegistry(1),
      dataset("locked", memoryItem("mem-a", [readGraph]), memoryItem("mem-b", [readGraph])),
    );
    expect(outcome.code).toBe(1);
    expect(errorLines(outcome.stderr)[0]).toMatch(
      /1 tasks could not be run \(first: .*mem-b.*: server "memory": its reset_command .* exited with code 3: reset failed: the graph file is locked\); fix the cause and run with --resume/,
    );
    const runId = /--resume (\S+)/.exec(outcome.stderr)![1]!;
    expect(readJsonl<{ itemId: string }>(join(results, runId, RUN_FILES.records)).rows.map((r) => r.itemId)).toEqual([
      "mem-a",
    ]);
  });

  it("a state check on a tool that is not read-only stops before the first query (exit 2), leaving no run behind", async () => {
    const before = readdirSync(results);
    const writeCheck = {
      call: { server: "memory", tool: "create_entities", args: { entities: [] } },
      expect: { contains: "[]" },
    };
    const outcome = await bench(memoryRegistry(99), dataset("writes", memoryItem("mem-w", [readGraph, writeCheck])));
    expect(outcome.code).toBe(2);
    expect(errorLines(outcome.stderr)).toHaveLength(1);
    expect(errorLines(outcome.stderr)[0]).toContain(
      "(mem-w): state[1] memory.create_entities: a state check must call a read-only tool",
    );
    expect(readdirSync(results)).toEqual(before);
  });

  it("a user's server named like a mock is never swapped for the mock, even in memory", async () => {
    const folder = join(root, "files");
    mkdirSync(folder);
    const pool = await ClientPool.open(
      loadRegistries([registry(server({ name: "filesystem", args: [FILESYSTEM, folder] }))]),
      { transport: "memory", mocks: mockServerFactories },
    );
    try {
      const allowed = await pool.callTool("list_allowed_directories", {});
      // the real server answers with the folder it was given; the mock would say /workspace
      expect(allowed.text).toContain(folder);
      expect(pool.childPids()).toHaveLength(1);
    } finally {
      await pool.close();
    }
    expect(existsSync(folder)).toBe(true);
  });
});
