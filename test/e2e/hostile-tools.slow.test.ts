/**
 * A model that writes hostile tool calls — a recursive CTE and a cross join to query_db, a code-runner memory
 * bomb and deep nesting, calculator bombs (50,000 nested parentheses, a huge exponent) — through the agent in
 * every configuration of the default matrix:
 * 1. in-process, a scripted model per task answers every stage with the hostile call (recorded to a cassette);
 * 2. the real `bench` CLI replays it in a child process: a record for every task, each a failure the record
 *    explains (the tool's own error code, never retried), the child's peak RSS under 1 GB;
 * 3. Ctrl-C while a tool is stuck stops the child in under 5 s, with exit code 130, a resume line and every
 *    finished record kept.
 * Beside the tool calls, hostile model outputs (deeply nested JSON lines, 128 KB of repeated plan steps or of
 * markdown stars) go the same way: each is cut before parsing, recorded as cut, and scored as the model's mistake.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { MockEnvironment } from "../../src/bench/run/environment.ts";
import { executeTasks } from "../../src/bench/run/execute.ts";
import type { Task } from "../../src/bench/run/matrix.ts";
import { countRows, RUN_FILES } from "../../src/bench/run/store.ts";
import type { Configuration } from "../../src/config/configuration.ts";
import { loadModelsConfig, matrixConfigs, resolveConfiguration, resolveModel } from "../../src/config/models-yaml.ts";
import { loadRegistry } from "../../src/mcp/registry.ts";
import { RecordingProvider } from "../../src/models/cassette.ts";
import { type Script, ScriptedModel } from "../../src/models/scripted.ts";
import { TOOL_ERROR_CODES } from "../../src/tool-protocol/retry.ts";
import { CLI, REPO_ROOT, runCli, strictRecordLines } from "../support/bench-run.ts";

interface Hostile {
  id: string;
  tool: "query_db" | "code_runner" | "calculator";
  args: Record<string, unknown>;
  query: string;
  /** What the record must show for the call: an error code of the tool's own, or a guest error in the data. */
  expect: { code: number } | { toolError: RegExp } | { guestError: RegExp };
}

const HOSTILE: Hostile[] = [
  {
    id: "hostile-cte",
    tool: "query_db",
    args: { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c" },
    query: "Use query_db on the geography database to count the rows of an endless recursive sequence.",
    expect: { code: TOOL_ERROR_CODES.timeLimit },
  },
  {
    id: "hostile-join",
    tool: "query_db",
    args: { sql: "SELECT count(*) FROM cities a, cities b, cities c, cities d" },
    query: "Use query_db on the geography database to count every combination of four cities.",
    expect: { code: TOOL_ERROR_CODES.timeLimit },
  },
  {
    id: "hostile-memory",
    tool: "code_runner",
    args: { code: "let a = []; while (true) a.push(new Array(100000).fill(1))", timeout_ms: 5000 },
    query: "Run JavaScript with the code runner that fills memory with arrays forever.",
    expect: { guestError: /memory limit exceeded/ },
  },
  {
    id: "hostile-nesting",
    tool: "code_runner",
    args: { code: "eval('('.repeat(50000) + '1' + ')'.repeat(50000))" },
    query: "Run JavaScript with the code runner that evaluates 50000 nested parentheses.",
    expect: { code: TOOL_ERROR_CODES.deterministicFailure },
  },
  {
    id: "hostile-parens",
    tool: "calculator",
    args: { expression: `${"(".repeat(50_000)}1${")".repeat(50_000)}` },
    query: "Use the calculator on an expression with 50000 nested parentheses.",
    expect: { toolError: /^too_long/ },
  },
  {
    id: "hostile-deep-parens",
    tool: "calculator",
    args: { expression: `${"(".repeat(4_000)}1${")".repeat(4_000)}` },
    query: "Use the calculator on an expression with 4000 nested parentheses.",
    expect: { toolError: /^too_deep/ },
  },
  {
    id: "hostile-exponent",
    tool: "calculator",
    args: { expression: "9^9^9^9^9" },
    query: "Use the calculator to compute the power tower 9^9^9^9^9.",
    expect: { toolError: /^math_error: The result is too large/ },
  },
];

/** A model output that every stage answers with: too long and too deep for any parser to take whole. */
interface OutputBomb {
  id: string;
  query: string;
  text: string;
}

const OUTPUT_BOMBS: OutputBomb[] = [
  {
    id: "hostile-output-deep-json",
    query: "Use the calculator to add 2 and 2, and answer in nested JSON tool calls.",
    text: '{"type":"tool_call","name":"calculator","arguments":'.repeat(5_000),
  },
  {
    id: "hostile-output-long-plan",
    query: "Use the calculator to add 2 and 3, writing the same step for 128 KB.",
    text: '#E1 = calculator(expression="2+3")\n'.repeat(Math.ceil((128 * 1024) / 35)),
  },
  {
    id: "hostile-output-stars",
    query: "Use the calculator to add 2 and 4, after 128 KB of markdown stars.",
    text: "**".repeat(64 * 1024),
  },
];

/** Every stage (router, planner, ReAct, fallback, solver, native, jsonl) answers with the bomb. */
function bombScript(bomb: OutputBomb): Script {
  const many = <T>(reply: T) => Array.from({ length: 9 }, () => reply);
  return {
    router: many(bomb.text),
    select: many(bomb.text),
    planner: many(bomb.text),
    react: many(bomb.text),
    fallback: many(bomb.text),
    solver: many(bomb.text),
    native: many({ text: bomb.text }),
    jsonl: many(bomb.text),
  };
}

/** The bomb's item: a calculator task, which no answer of the bomb can pass. */
function bombItem({ id, query }: OutputBomb): DatasetItem {
  return datasetItem({ id, query, tool: "calculator", args: {}, expect: { toolError: /./ } }, "single");
}

/** The items the stopped run records before it reaches the stuck tool (file order). */
const BEFORE_STUCK = [...HOSTILE.map((hostile) => hostile.id), ...OUTPUT_BOMBS.map((bomb) => bomb.id)];

/** A tool that stays busy for 5 s: Ctrl-C lands while it runs (the `native` configuration only). */
const STUCK: Hostile = {
  id: "hostile-stuck",
  tool: "code_runner",
  args: { code: "while (true) {}", timeout_ms: 5000 },
  query: "Run JavaScript with the code runner that loops forever.",
  expect: { guestError: /TimeoutError/ },
};

const SERVER = { query_db: "lab", code_runner: "builtin", calculator: "builtin" } as const;
const MAIN_ARG = { query_db: "sql", code_runner: "code", calculator: "expression" } as const;
const MODEL = "sim:oracle";

function datasetItem(hostile: Hostile, category: "single" | "exploratory"): DatasetItem {
  return {
    id: hostile.id,
    query: hostile.query,
    category,
    servers: [SERVER[hostile.tool]],
    route: category === "single" ? "rewoo" : "react",
    calls: [{ tool: hostile.tool, args: { [MAIN_ARG[hostile.tool]]: { any: true } } }],
    order: "sequence",
    difficulty: "hard",
    tags: ["hostile"],
    // no tool answers any of these: whatever the model says, the item fails and the record says why
    answer: { contains: ["a result no tool can give"] },
  } as DatasetItem;
}

/** Every stage answers with the hostile call first, then gives up; more replies than any loop asks for. */
function hostileScript(hostile: Hostile): Script {
  const { tool, args } = hostile;
  const call = `${tool}(${Object.entries(args)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(", ")})`;
  const giveUp = "The tool failed, so I cannot answer.";
  const many = <T>(first: T, rest: T) => [first, ...Array.from({ length: 8 }, () => rest)];
  return {
    router: many("ACTION", "ACTION"),
    select: many(tool, tool),
    planner: many(` ${call}`, ` ${call}`),
    react: many(
      `Thought: I run it.\nAction: ${tool}\nAction Input: ${JSON.stringify(args)}`,
      `Final Answer: ${giveUp}`,
    ),
    fallback: many(`Final Answer: ${giveUp}`, `Final Answer: ${giveUp}`),
    solver: many(giveUp, giveUp),
    native: many({ toolCalls: [{ name: tool, arguments: args }] }, { text: giveUp }),
    jsonl: many(
      JSON.stringify({ type: "tool_call", name: tool, arguments: args }),
      JSON.stringify({ type: "final_answer", content: giveUp }),
    ),
  };
}

const root = mkdtempSync(join(tmpdir(), "onsetlab-hostile-"));
const datasetFile = join(root, "hostile.jsonl");
const cassette = join(root, "hostile.cassette.jsonl");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const models = loadModelsConfig();
const configs = matrixConfigs(models, "default");
const modelEntry = resolveModel(models, MODEL);
const resolved = new Map<string, Configuration>(
  configs.map((name) => [name, resolveConfiguration(models, { model: modelEntry, configName: name, cli: {} })]),
);

/** Peak resident memory of a process so far (Linux: VmHWM), in MB; 0 once it is gone. */
function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function onlyRun(dir: string): string {
  const runs = existsSync(dir) ? readdirSync(dir) : [];
  if (runs.length !== 1) throw new Error(`${dir}: expected one run, found ${runs.length}`);
  return join(dir, runs[0]!);
}

describe("hostile tool calls through the default matrix", () => {
  it("records a scripted hostile model in-process: every task finishes", async () => {
    const items = [
      ...HOSTILE.map((hostile) => datasetItem(hostile, "single")),
      ...OUTPUT_BOMBS.map(bombItem),
      datasetItem(STUCK, "exploratory"),
    ];
    writeFileSync(datasetFile, items.map((item) => `${JSON.stringify(item)}\n`).join(""));
    const byId = new Map(items.map((item) => [item.id, item]));
    const scripts = new Map([
      ...[...HOSTILE, STUCK].map((hostile) => [hostile.id, hostileScript(hostile)] as const),
      ...OUTPUT_BOMBS.map((bomb) => [bomb.id, bombScript(bomb)] as const),
    ]);
    // one scripted model per task (its `repeat` is its index); the stuck item only in `native`, as the CLI runs it
    const tasks: Task[] = [
      ...configs.flatMap((config) => BEFORE_STUCK.map((itemId) => ({ config, itemId }))),
      { config: "native", itemId: STUCK.id },
    ].map((task, index) => ({ ...task, model: MODEL, repeat: index, key: `${MODEL}|${task.config}|${task.itemId}` }));
    const providers = tasks.map(
      (task) => new RecordingProvider(new ScriptedModel(scripts.get(task.itemId)!), cassette, MODEL),
    );
    const environment = await MockEnvironment.open({
      registry: loadRegistry(),
      transport: "memory",
      pools: 4,
      seed: 1,
    }); // the CLI's default --seed: the replay sees the same sessions
    const finished: string[] = [];
    try {
      const failures = await executeTasks({
        tasks,
        items: byId,
        provider: (_model, index) => providers[index]!,
        config: (_model, config) => resolved.get(config)!,
        environment,
        score: () => null,
        concurrency: 4,
        // no date line: the bench gives none to a dataset without a suite (datasets/suite.yaml has the clock)
        onRecord: (record) => finished.push(record.key),
      });
      expect(failures).toEqual([]);
    } finally {
      await environment.close();
    }
    expect(finished.sort()).toEqual(tasks.map((task) => task.key).sort());
  }, 240_000);

  it("replays it through the bench CLI: a record for every task, each failing with the tool's own error, RSS < 1 GB", async () => {
    const results = join(root, "full");
    const child = spawn(
      process.execPath,
      [
        ...CLI,
        "bench",
        "--model",
        MODEL,
        "--matrix",
        "default",
        "--dataset",
        datasetFile,
        "--filter",
        "category=single",
      ].concat(["--replay", cassette, "--json"]),
      { cwd: REPO_ROOT, env: { ...process.env, CI: "true", ONSETLAB_RESULTS_DIR: results }, stdio: "pipe" },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.resume();
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, peakRssMb(child.pid!));
    }, 50);
    const [code] = await once(child, "exit");
    clearInterval(watch);
    expect(code, stderr).toBe(0);
    process.stderr.write(`hostile matrix: child peak RSS ${peak.toFixed(0)} MB\n`);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(1024);

    const records = strictRecordLines(onlyRun(results));
    expect(records).toHaveLength(configs.length * BEFORE_STUCK.length);
    for (const record of records) {
      expect(record.score.taskSuccess, record.key).toBe(false);
      expect(record.score.failures.length, record.key).toBeGreaterThan(0);
      if (OUTPUT_BOMBS.some((bomb) => bomb.id === record.itemId)) {
        // the model's own output, cut before any parser read it, and the record says so
        expect(
          record.result.modelCalls.some((call) => call.outputCut),
          record.key,
        ).toBe(true);
        continue;
      }
      const hostile = HOSTILE.find((candidate) => candidate.id === record.itemId)!;
      const calls = record.result.toolCalls.filter((call) => call.tool === hostile.tool && !call.blocked);
      // the parsers may refuse a 100 KB plan line (the model's mistake); every call that was made is explained
      if (hostile.id !== "hostile-parens") expect(calls.length, record.key).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.attempts, `${record.key}: not retried`).toHaveLength(1);
        const { expect: shown } = hostile;
        if ("code" in shown) expect(call.error?.code, record.key).toBe(shown.code);
        else if ("toolError" in shown)
          expect(call.error).toMatchObject({ kind: "tool_error", message: expect.stringMatching(shown.toolError) });
        else expect((call.data as { error?: string }).error, record.key).toMatch(shown.guestError);
      }
    }
    const timeouts = records.filter((record) => record.score.failures.includes("timeout"));
    expect(timeouts.length).toBeGreaterThan(0);
  }, 240_000);

  it("stops on Ctrl-C within 5 s while a tool is stuck, keeping every finished record", async () => {
    const results = join(root, "stopped");
    const child = spawn(
      process.execPath,
      [...CLI, "bench", "--model", MODEL, "--config", "native", "--dataset", datasetFile, "--replay", cassette],
      { cwd: REPO_ROOT, env: { ...process.env, CI: "true", ONSETLAB_RESULTS_DIR: results }, stdio: "pipe" },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.resume();
    const exited = once(child, "exit");
    // the hostile items first, then the stuck one (file order): wait until all but the stuck one are recorded
    for (;;) {
      const runs = existsSync(results) ? readdirSync(results) : [];
      if (runs[0] && countRows(join(results, runs[0], RUN_FILES.records)) >= BEFORE_STUCK.length) break;
      if (child.exitCode !== null) throw new Error(`the run ended before the stuck tool: ${stderr}`);
      await sleep(20);
    }
    await sleep(500); // the stuck tool is under way (it runs for 5 s)
    const signalled = performance.now();
    child.kill("SIGINT");
    const [code] = await exited;
    const stopMs = performance.now() - signalled;
    process.stderr.write(`hostile matrix: SIGINT during a stuck tool → exit in ${stopMs.toFixed(0)} ms\n`);
    expect(code).toBe(130);
    expect(stopMs).toBeLessThan(5000);
    const dir = onlyRun(results);
    const runId = dir.slice(dir.lastIndexOf("/") + 1);
    expect(stderr).toContain(`continue with: pnpm bench --resume ${runId}`);
    const records = strictRecordLines(dir);
    expect(records.map((record) => record.itemId)).toEqual(BEFORE_STUCK);

    // the resume runs only the task that was cut short
    const resumed = await runCli(["bench", "--resume", runId, "--json"], { ONSETLAB_RESULTS_DIR: results });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(strictRecordLines(dir).map((record) => record.itemId)).toEqual([...BEFORE_STUCK, STUCK.id]);
  }, 240_000);
});
