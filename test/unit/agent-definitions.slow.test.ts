/**
 * Agent definitions in the bench: the example (examples/agents/support.md) scores on the oracle what the
 * protocol it drives scores with its built-in prompt, item for item (and so do a native and a react
 * definition); the run records the definition's text, hash and files; models.yaml configurations can
 * name one; a changed definition stops the gate; bad input is one line and exit 2.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentQuery } from "../../src/bench/run/agent-query.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { formatTrace } from "../../src/cli/trace-print.ts";
import { parseModelsConfig, resolveConfiguration, resolveModel } from "../../src/config/models-yaml.ts";
import { buildBaseline, DEFAULT_POLICY } from "../../src/report/baseline.ts";
import { BaselineError } from "../../src/report/errors.ts";
import { checkSameMatrix } from "../../src/report/gate.ts";
import { loadOutcomes } from "../../src/report/outcomes.ts";
import { loadRunSet } from "../../src/report/runs.ts";
import { benchRequest, REPO_ROOT, runCli, strictRecordLines } from "../support/bench-run.ts";

const EXAMPLE = join(REPO_ROOT, "examples/agents/support.md");
const POLICY = join(REPO_ROOT, "examples/agents/files/triage-policy.md");

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "agent-def-")), name);
  writeFileSync(path, text);
  return path;
}

/** A small, fixed slice of the dataset: the same items in every run of this file. */
const SLICE = { filter: { server: ["github"] }, first: 30 };

async function bench(configs: string[], agents: string[], files: string[] = [], root?: string) {
  const resultsRoot = root ?? mkdtempSync(join(tmpdir(), "agent-def-runs-"));
  const outcome = await runBench({
    request: benchRequest({ models: ["sim:oracle"], configs, matrix: undefined, agents, files, ...SLICE }),
    resultsRoot,
    threads: 1,
  });
  return { ...outcome, resultsRoot };
}

/** Task success per item key (without the configuration), for one configuration of a run. */
function outcomesOf(dir: string, config: string): Record<string, boolean> {
  return Object.fromEntries(
    strictRecordLines(dir)
      .filter((record) => record.config === config)
      .map((record) => [record.itemId, record.score.taskSuccess]),
  );
}

describe("the example definition on the oracle", () => {
  it("scores what jsonl scores with its built-in prompt, item for item, and the run records it", async () => {
    const { dir, summary, manifest } = await bench(["jsonl"], [EXAMPLE], [POLICY]);
    const rows = Object.fromEntries(summary.rows.filter((row) => row.group === null).map((row) => [row.config, row]));
    expect(Object.keys(rows).sort()).toEqual(["jsonl", "support"]);
    expect(rows.support!.n).toBe(30);
    expect(rows.support!.taskSuccess.k).toBe(rows.jsonl!.taskSuccess.k);
    expect(outcomesOf(dir, "support")).toEqual(outcomesOf(dir, "jsonl"));

    const definition = manifest.resolved["sim:oracle"]!.support!.definition!;
    expect(definition.text).toBe(readFileSync(EXAMPLE, "utf8"));
    expect(definition.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(definition.files.map((file) => [file.name, file.truncated])).toEqual([["triage-policy.md", false]]);
    const record = strictRecordLines(dir).find(
      (line) => line.config === "support" && line.result.modelCalls.length > 0,
    )!;
    expect(record.result.definition).toMatchObject({ name: "support", hash: definition.hash, protocol: "jsonl" });
    expect(record.result.definition!.files[0]!.injectedChars).toBe(definition.files[0]!.content.length);
    expect(record.result.modelCalls[0]!.messages![0]!.content).toContain("Post incident updates in #incidents");
    // the mock world's clock is the template's date
    expect(record.result.modelCalls[0]!.messages![0]!.content).toContain("Today is Monday, March 16, 2026");
  }, 120_000);

  it("native and react definitions score what their protocols score too", async () => {
    const native = tempFile("my-native.md", "---\nprotocol: native\n---\nYou help with GitHub. {{ date }}\n");
    const react = tempFile(
      "my-react.md",
      // its own heading: the simulator reads the tool lines wherever the prompt puts them, as a model does
      "---\nprotocol: react\n---\nAnswer with Thought, Action, Action Input, Final Answer.\nTools:\n{{ tools }}\n",
    );
    const { dir, summary } = await bench(["native", "react"], [native, react]);
    const success = (config: string) =>
      summary.rows.find((row) => row.config === config && row.group === null)!.taskSuccess.k;
    expect(success("my-native")).toBe(success("native"));
    expect(success("my-react")).toBe(success("react"));
    expect(outcomesOf(dir, "my-react")).toEqual(outcomesOf(dir, "react"));
  }, 120_000);
});

describe("pnpm agent --agent FILE --files …", () => {
  it("runs one query through the definition, with the files injected and recorded", async () => {
    const outcome = await runAgentQuery({
      itemId: "gh-s002",
      model: "sim:oracle",
      configName: "onsetlab",
      seed: 1,
      transport: "memory",
      agent: EXAMPLE,
      files: [POLICY],
    });
    expect(outcome.result.config.definition?.name).toBe("support");
    expect(outcome.result.path).toBe("jsonl");
    expect(outcome.result.definition?.files).toEqual([
      expect.objectContaining({ path: "examples/agents/files/triage-policy.md", truncated: false }),
    ]);
    expect(outcome.score?.taskSuccess).toBe(true);
    // the printed trace names the definition, its hash and what the files took in the prompt
    const printed = formatTrace(outcome.result, {
      model: "sim:oracle",
      configName: "support",
      simulated: true,
      width: 200,
    });
    expect(printed).toMatch(
      /^prompt +examples\/agents\/support\.md \(jsonl, hash [0-9a-f]{16}\): \d+ chars · files: examples\/agents\/files\/triage-policy\.md \d+$/m,
    );
  });
});

describe("models.yaml configurations with agent:", () => {
  const yaml = (configuration: string) => `configurations:\n  onsetlab: {}\n  support: ${configuration}\n`;

  it("load the definition relative to the file; the definition sets the strategy and limits", () => {
    const models = parseModelsConfig(yaml("{ agent: examples/agents/support.md }"), join(REPO_ROOT, "models.yaml"));
    const model = resolveModel(models, "sim:oracle");
    const config = resolveConfiguration(models, { model, configName: "support" });
    expect(config.strategy).toBe("jsonl");
    expect(config.limits.jsonlMaxIterations).toBe(6);
    expect(config.definition).toMatchObject({ name: "support", file: "examples/agents/support.md" });
  });

  it("refuse a strategy that is not the definition's protocol", () => {
    expect(() =>
      parseModelsConfig(yaml("{ agent: examples/agents/support.md, strategy: rewoo }"), join(REPO_ROOT, "models.yaml")),
    ).toThrow(/models\.yaml: configurations\.support\.strategy: "rewoo" clashes with agent .*jsonl protocol/);
  });
});

describe("a changed definition is another measurement", () => {
  it("changes the recorded hash, and the gate refuses to compare the runs, naming both hashes", async () => {
    // a name of its own: the repository's models.yaml runs the example itself as `support`
    const text = readFileSync(EXAMPLE, "utf8").replace("name: support", "name: my-support");
    const file = tempFile("support.md", text);
    const first = await bench([], [file]);
    writeFileSync(file, text.replace("Keep answers short", "Keep answers very short"));
    // nor does a resume mix the two in one run
    await expect(
      runBench({ request: benchRequest(), resume: first.runId, resultsRoot: first.resultsRoot }),
    ).rejects.toThrow(
      /--resume .*: the agent definition of my-support changed since the run started \([0-9a-f]{16} → [0-9a-f]{16}\)/,
    );
    const second = await bench([], [file], [], first.resultsRoot);
    const hashes = [first, second].map((run) => run.manifest.resolved["sim:oracle"]!["my-support"]!.definition!.hash);
    expect(hashes[0]).not.toBe(hashes[1]);

    const baseline = buildBaseline(
      loadRunSet([first.runId], first.resultsRoot),
      loadOutcomes(loadRunSet([first.runId], first.resultsRoot).runs[0]!),
      DEFAULT_POLICY,
      "baselines/support.json",
    );
    const set = loadRunSet([second.runId], first.resultsRoot);
    const gate = () => checkSameMatrix(baseline, set, loadOutcomes(set.runs[0]!), "baselines/support.json");
    expect(gate).toThrow(BaselineError);
    expect(gate).toThrow(
      new RegExp(
        `sim:oracle × my-support ran agent definition ${hashes[0]} in the baseline, ${hashes[1]} \\(.*support\\.md\\)`,
      ),
    );
    // the same definition again passes the check
    const again = loadRunSet([first.runId], first.resultsRoot);
    expect(() => checkSameMatrix(baseline, again, loadOutcomes(again.runs[0]!), "b.json")).not.toThrow();
  }, 120_000);
});

describe("bad input: one line, exit 2, no run folder", () => {
  const unknownVariable = tempFile("v.md", "---\nprotocol: jsonl\n---\nHello\n{{ tools }} and {{ manual }}\n");
  const unknownProtocol = tempFile("p.md", "---\nprotocol: openai-tools\n---\nHello\n");
  it.each([
    ["a missing definition file", ["--agent", "agents/nope.md"], /^agents\/nope\.md: cannot read the agent definition/],
    ["an unknown protocol", ["--agent", unknownProtocol], /p\.md:2:1: protocol: expected one of native, jsonl, react$/],
    ["an unknown template variable", ["--agent", unknownVariable], /v\.md:5:20: unknown variable "manual"/],
    [
      "a missing --files file",
      ["--agent", EXAMPLE, "--files", "notes/none.md"],
      /^--files notes\/none\.md: cannot read it/,
    ],
  ])(
    "%s",
    async (_what, flags, message) => {
      const results = mkdtempSync(join(tmpdir(), "agent-def-bad-"));
      const outcome = await runCli(["bench", "--model", "sim:oracle", ...flags], { ONSETLAB_RESULTS_DIR: results });
      expect(outcome.code).toBe(2);
      const lines = outcome.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]!.replace(/^error: /, "")).toMatch(message);
      expect(readdirSync(results)).toEqual([]);
    },
    60_000,
  );
});
