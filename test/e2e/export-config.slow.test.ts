/**
 * `export --format config` round-trips: the agent file, run by `agent --agent-file` and benchmarked by
 * `bench --agent-file`, gives the same traces as the configuration run directly (the simulator, timing
 * aside). Also the file's provenance with --from-run, its schema check on read, and every bad input of
 * `export` as one clear line with exit 2 and nothing written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runAgentQuery } from "../../src/bench/run/agent-query.ts";
import { withoutTiming } from "../../src/bench/run/record-content.ts";
import { readAgentFile } from "../../src/config/agent-file.ts";
import { agentRoutes } from "../../src/serve/agent-routes.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { recordContents } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { useTempResults } from "../support/temp-results.ts";

// the results folder of this test (read when a run is written, not at import)
const { root, results } = useTempResults("onsetlab-export-config-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
const folder = () => join(root, `out-${++folders}`);

async function exportConfig(args: string[]): Promise<string> {
  const out = folder();
  const outcome = await runInProcess(["export", "--format", "config", "--out", out, ...args]);
  expect(outcome.stderr).toBe("");
  expect(outcome.code).toBe(0);
  return out;
}

/** `agent … --json` in process: the whole AgentResult, without its timing fields. */
async function agentTrace(args: string[]): Promise<unknown> {
  const outcome = await runInProcess(["agent", "--json", ...args]);
  expect(outcome.code, outcome.stderr).toBe(0);
  return withoutTiming(JSON.parse(outcome.stdout));
}

describe("export --format config", () => {
  it.each([
    ["onsetlab", "gh-q001"],
    ["onsetlab-plus", "gh-s029"],
    ["native", "ca-s015"],
  ])("%s: agent --agent-file gives the same trace as the configuration run directly (%s)", async (config, itemId) => {
    const out = await exportConfig(["--model", "sim:slm-3b", "--config", config]);
    expect(readdirSync(out)).toEqual(["agent.yaml"]);
    const file = join(out, "agent.yaml");
    const fromFile = await agentTrace(["--agent-file", file, "--item", itemId]);
    const direct = await agentTrace(["--model", "sim:slm-3b", "--config", config, "--item", itemId]);
    expect(fromFile).toEqual(direct);
    expect((fromFile as { toolCalls: unknown[] }).toolCalls.length).toBeGreaterThan(0);
  });

  it("carries an agent definition (models.yaml agent:): its text and hash travel, and the file runs it as measured", async () => {
    const out = await exportConfig(["--model", "sim:slm-3b", "--config", "support"]);
    const file = join(out, "agent.yaml");
    const definition = readAgentFile(file).configuration.definition;
    expect(definition?.text).toBe(readFileSync(join(import.meta.dirname, "../../examples/agents/support.md"), "utf8"));
    expect(definition).toMatchObject({
      name: "support",
      protocol: "jsonl",
      hash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const fromFile = await agentTrace(["--agent-file", file, "--item", "gh-s002"]);
    const direct = await agentTrace(["--model", "sim:slm-3b", "--config", "support", "--item", "gh-s002"]);
    expect(fromFile).toEqual(direct);
    expect((fromFile as { definition?: { hash: string } }).definition?.hash).toBe(definition?.hash);
  });

  it("holds the resolved configuration, the model entry, the servers' env names and the provenance", async () => {
    const out = await exportConfig(["--model", "qwen2.5:1.5b", "--config", "onsetlab-plus"]);
    const agent = readAgentFile(join(out, "agent.yaml"));
    // the model's own axis (filter: 5) over the configuration's 8, as resolveConfiguration gives it
    expect(agent.configuration).toMatchObject({ filter: 5, planSteps: "many", writeGuard: "per_call" });
    expect(agent.configuration.limits).toMatchObject({ plannerMaxTokens: 150, totalTimeoutMs: 120_000 });
    expect(agent.model).toMatchObject({ name: "qwen2.5:1.5b", provider: "ollama", options: { keepAlive: "10m" } });
    expect(agent.servers.map((server) => server.name)).toContain("github");
    expect(agent.servers.find((server) => server.name === "github")?.env).toEqual(["MOCK_MCP_FAULTS"]);
    expect(agent.provenance).toMatchObject({ project: "onsetlab-bench", version: "0.1.0" });
    expect(agent.provenance.git).toMatch(/^[0-9a-f]{7,}(\+dirty)?$|^unknown$/);
    expect(agent.dry_run).toBe(false);
  });

  it("--json writes and prints agent.json, which agent --agent-file reads as well", async () => {
    const out = folder();
    const outcome = await runInProcess([
      "export",
      "--format",
      "config",
      "--json",
      "--out",
      out,
      "--model",
      "sim:oracle",
      "--config",
      "rewoo",
    ]);
    expect(outcome.code).toBe(0);
    expect(readdirSync(out)).toEqual(["agent.json"]);
    const printed = JSON.parse(outcome.stdout) as { config: string };
    expect(printed).toEqual(JSON.parse(readFileSync(join(out, "agent.json"), "utf8")));
    expect(printed.config).toBe("rewoo");
    const trace = (await agentTrace(["--agent-file", join(out, "agent.json"), "--item", "gh-s004"])) as {
      answer: string;
    };
    expect(trace.answer).toContain("Add dark mode toggle");
  });

  it("bench --agent-file benchmarks the file's model × configuration like --model/--config", async () => {
    const out = await exportConfig(["--model", "sim:slm-3b", "--config", "onsetlab-plus"]);
    const common = ["--first", "6", "--filter", "category=single|sequence", "--json"];
    const fromFile = await runInProcess(["bench", "--agent-file", join(out, "agent.yaml"), ...common]);
    const direct = await runInProcess(["bench", "--model", "sim:slm-3b", "--config", "onsetlab-plus", ...common]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(direct.code, direct.stderr).toBe(0);
    const dirOf = (stdout: string) => join(results, (JSON.parse(stdout) as { runId: string }).runId);
    const contents = (stdout: string) => recordContents(dirOf(stdout)).map(({ content }) => content);
    expect(contents(fromFile.stdout)).toEqual(contents(direct.stdout));
    expect(contents(direct.stdout)).toHaveLength(6);
  });

  it("--from-run records the run and this configuration's scores from its summary", async () => {
    const bench = await runInProcess([
      "bench",
      "--model",
      "sim:slm-3b",
      "--config",
      "onsetlab,native",
      "--first",
      "4",
      "--json",
    ]);
    expect(bench.code, bench.stderr).toBe(0);
    const { runId } = JSON.parse(bench.stdout) as { runId: string };
    const summary = JSON.parse(readFileSync(join(results, runId, "summary.json"), "utf8")) as {
      rows: { model: string; config: string; group: unknown; taskSuccess: unknown }[];
    };
    const row = summary.rows.find((candidate) => candidate.config === "native" && candidate.group === null)!;
    const out = await exportConfig(["--model", "sim:slm-3b", "--config", "native", "--from-run", runId]);
    const { run } = readAgentFile(join(out, "agent.yaml")).provenance;
    expect(run).toMatchObject({ runId, model: "sim:slm-3b", config: "native", simulated: true });
    expect(run?.scores.taskSuccess).toEqual(row.taskSuccess);
    const missing = await runInProcess([
      "export",
      "--format",
      "config",
      "--out",
      folder(),
      "--model",
      "sim:slm-3b",
      "--config",
      "react",
      "--from-run",
      runId,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^error: --from-run \S+: the run has no row for --model sim:slm-3b × --config react\n$/,
    );
  });

  it("the file is checked against its schema on read: a bad value is one line naming the key", async () => {
    const out = await exportConfig(["--model", "sim:slm-3b", "--config", "onsetlab"]);
    const file = join(out, "agent.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("planSteps: one", "planSteps: seven"));
    const outcome = await runInProcess(["agent", "--agent-file", file, "--item", "gh-s004"]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /^error: \S+agent\.yaml: configuration\.planSteps: must be equal to one of the allowed values/,
    );
    expect(outcome.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("dry run from the agent file and the flags", () => {
  it("dry_run: true in the file previews writes in agent and bench; the bench says so and leaves end state unmeasured", async () => {
    const out = await exportConfig(["--model", "sim:oracle", "--config", "onsetlab-plus", "--dry-run"]);
    const file = join(out, "agent.yaml");
    expect(parse(readFileSync(file, "utf8")).dry_run).toBe(true);
    const trace = (await agentTrace(["--agent-file", file, "--item", "gh-s029"])) as {
      toolCalls: { tool: string; dryRun?: boolean; data?: { dryRun?: boolean } }[];
    };
    expect(trace.toolCalls.find((call) => call.tool === "issue_write")).toMatchObject({
      dryRun: true,
      data: { dryRun: true },
    });

    const bench = await runInProcess([
      "bench",
      "--agent-file",
      file,
      "--filter",
      "id=gh-s029|gh-s030|gh-s004",
      "--json",
    ]);
    expect(bench.code, bench.stderr).toBe(0);
    const { runId, dryRun } = JSON.parse(bench.stdout) as { runId: string; dryRun?: boolean };
    expect(dryRun).toBe(true);
    const summary = JSON.parse(readFileSync(join(results, runId, "summary.json"), "utf8")) as {
      dryRun?: boolean;
      rows: { group: unknown; stateAccuracy: { n: number }; taskSuccess: { k: number; n: number } }[];
    };
    expect(summary.dryRun).toBe(true);
    const row = summary.rows.find((candidate) => candidate.group === null)!;
    // the oracle makes every right call: with the previews, every task passes and no state was measured
    expect(row.stateAccuracy.n).toBe(0);
    expect(row.taskSuccess).toMatchObject({ k: 3, n: 3 });
    const writes = recordContents(join(results, runId)).flatMap(({ content }) =>
      (content as { result: { toolCalls: { tool: string; dryRun?: boolean }[] } }).result.toolCalls.filter(
        (call) => call.tool === "issue_write",
      ),
    );
    expect(writes.map((call) => call.dryRun)).toEqual([true, true]);
    const table = await runInProcess(["bench", "--agent-file", file, "--filter", "id=gh-s029"]);
    expect(table.stdout).toContain("DRY RUN: writes previewed, not made; end state not measured");
    const reportDir = folder();
    const report = await runInProcess(["report", runId, "--out", reportDir]);
    expect(report.code, report.stderr).toBe(0);
    const markdown = readdirSync(reportDir).filter((name) => name.endsWith(".md"));
    expect(markdown.some((name) => readFileSync(join(reportDir, name), "utf8").includes("DRY RUN (`--dry-run`)"))).toBe(
      true,
    );
  });

  it("runAgentQuery and POST /run with dryRun: the preview, and the end state not scored (it is without)", async () => {
    const query = {
      itemId: "gh-s029",
      model: "sim:oracle",
      configName: "onsetlab",
      seed: 1,
      transport: "memory",
    } as const;
    const dry = await runAgentQuery({ ...query, dryRun: true });
    expect(dry.score?.state).toBeNull();
    expect(dry.score?.taskSuccess).toBe(true);
    const wet = await runAgentQuery(query);
    expect(wet.score?.state).toMatchObject({ ok: true });
    expect(wet.result.toolCalls.some((call) => call.dryRun)).toBe(false);

    const response = await agentRoutes(benchQueryRunner()).request("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "sim:oracle", itemId: "gh-s029", dryRun: true }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      result: { toolCalls: { tool: string; dryRun?: boolean }[] };
      score: { state: unknown };
    };
    expect(body.result.toolCalls.find((call) => call.tool === "issue_write")?.dryRun).toBe(true);
    expect(body.score.state).toBeNull();
  });

  it("agent --dry-run on a write item: the preview in the trace", async () => {
    const outcome = await runInProcess(["agent", "--model", "sim:oracle", "--item", "gh-s029", "--dry-run", "--json"]);
    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout) as { toolCalls: { tool: string; dryRun?: boolean; text?: string }[] };
    const write = result.toolCalls.find((call) => call.tool === "issue_write")!;
    expect(write.dryRun).toBe(true);
    expect(write.text).toMatch(/^dry run: issue_write \(github\) was not run; it would have been called with \{/);
  });
});

/** export's flags: format, model and configuration, then any others. */
const flags = (format: string, model: string, config: string, ...rest: string[]): string[] => [
  "--format",
  format,
  "--model",
  model,
  "--config",
  config,
  ...rest,
];

describe("export: bad input is one clear line, exit 2, nothing written", () => {
  const secretRegistry = (server: Record<string, unknown>) => {
    const file = join(mkdtempSync(join(tmpdir(), "onsetlab-registry-")), "registry.json");
    writeFileSync(
      file,
      JSON.stringify({
        servers: [{ name: "mine", purpose: "a user's server", transport: "stdio", command: "node", ...server }],
      }),
    );
    return file;
  };
  const modelsWithKey = () => {
    const file = join(mkdtempSync(join(tmpdir(), "onsetlab-models-")), "models.yaml");
    writeFileSync(
      file,
      "models:\n  remote:\n    provider: openai\n    base_url: https://user:hunter2@llm.example.com/v1\n    allow_remote: true\nconfigurations:\n  c: {}\n",
    );
    return file;
  };
  const nonEmpty = () => {
    const dir = folder();
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "keep me");
    return dir;
  };

  it.each([
    [
      "an unknown format",
      () => flags("zip", "qwen2.5:3b", "onsetlab"),
      /^error: --format must be one of config, docker, docker-vllm, script, not "zip"$/,
    ],
    [
      "no format",
      () => ["--model", "qwen2.5:3b", "--config", "onsetlab"],
      /^error: --format is required: one of config, docker, docker-vllm, script$/,
    ],
    ["no model", () => ["--format", "config", "--config", "onsetlab"], /^error: --model is required/],
    ["no config", () => ["--format", "config", "--model", "qwen2.5:3b"], /^error: --config is required/],
    [
      "an unknown config",
      () => flags("config", "qwen2.5:3b", "best"),
      /^error: --config "best" is not a configuration in /,
    ],
    [
      "a non-empty folder",
      () => flags("config", "qwen2.5:3b", "onsetlab", "--out", nonEmpty()),
      /^error: --out \S+: the folder is not empty \(1 entries\); choose an empty one or pass --force/,
    ],
    [
      "an env entry with a value",
      () =>
        flags(
          "config",
          "qwen2.5:3b",
          "onsetlab",
          "--registry",
          secretRegistry({ env: ["HOME", "GITHUB_TOKEN=ghp_abc123"] }),
        ),
      /^error: --registry \S+: servers\[0\] \(mine\): env\[1\] "GITHUB_TOKEN=…" looks like a secret value; list only the environment variable's NAME/,
    ],
    [
      "a token argument",
      () =>
        flags(
          "script",
          "qwen2.5:3b",
          "onsetlab",
          "--registry",
          secretRegistry({ args: ["server.js", "--api-key", "abc"] }),
        ),
      /^error: --registry \S+: servers\[0\] \(mine\): args\[1\] \(--api-key with a value\) looks like a secret value/,
    ],
    [
      "an api key field",
      () => flags("docker", "qwen2.5:3b", "onsetlab", "--registry", secretRegistry({ apiKey: "xyz" })),
      /^error: --registry \S+: servers\[0\] \(mine\): apiKey looks like a secret value/,
    ],
    [
      "a model URL with a password",
      () => flags("config", "remote", "c", "--models", modelsWithKey()),
      /^error: \S+models\.yaml: models\.remote: baseUrl \(a URL with a password\) looks like a secret value/,
    ],
    [
      "the simulator as a script",
      () => flags("script", "sim:slm-3b", "onsetlab"),
      /^error: --format script: --model sim:slm-3b is the simulator/,
    ],
    [
      "an openai model in docker",
      () => flags("docker", "llamacpp:qwen2.5-3b", "onsetlab"),
      /^error: --format docker serves the model with Ollama, but --model llamacpp:qwen2.5-3b is an openai model/,
    ],
    [
      "vLLM with no known Hugging Face id",
      () => flags("docker-vllm", "mistral:7b", "onsetlab"),
      /^error: --format docker-vllm: no Hugging Face id known for --model mistral:7b .*give one with --hf-id ORG\/NAME$/,
    ],
  ])("%s", async (_case, args, message) => {
    const flags = args();
    const out = flags.includes("--out") ? undefined : folder();
    const before = out === undefined ? readdirSync(flags[flags.indexOf("--out") + 1]!) : [];
    const outcome = await runInProcess(["export", ...(out ? ["--out", out] : []), ...flags]);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe("");
    const lines = outcome.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    if (out) expect(existsSync(out)).toBe(false);
    else expect(readdirSync(flags[flags.indexOf("--out") + 1]!)).toEqual(before);
  });

  it("--force writes into a non-empty folder; --hf-id gives vLLM an unknown model", async () => {
    const dir = folder();
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "keep me");
    const forced = await runInProcess([
      "export",
      ...flags("config", "qwen2.5:3b", "onsetlab", "--out", dir, "--force"),
    ]);
    expect(forced.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["agent.yaml", "notes.txt"]);
    const vllm = folder();
    const given = await runInProcess([
      "export",
      ...flags("docker-vllm", "mistral:7b", "onsetlab", "--hf-id", "mistralai/Mistral-7B-Instruct-v0.3", "--out", vllm),
    ]);
    expect(given.code, given.stderr).toBe(0);
    expect(readAgentFile(join(vllm, "agent.yaml")).model.model).toBe("mistralai/Mistral-7B-Instruct-v0.3");
  });
});
