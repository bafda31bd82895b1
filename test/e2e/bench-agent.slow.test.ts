/**
 * `pnpm agent`: one query runs exactly as the bench runs it (same trace and score as the bench's record
 * of that item, timing aside), and the CLI prints the trace readably, says when the answers are
 * simulated, and fails with one clear line on bad flags or an unreachable Ollama.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAgentQuery } from "../../src/bench/run/agent-query.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { withoutTiming } from "../../src/bench/run/record-content.ts";
import { benchRequest, recordContents, runCli } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-agent-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// a sequence with a write and an end-state check, and a query that needs no tool
const ITEMS = ["gh-q001", "ca-d001"];
const CONFIGS = ["onsetlab", "native", "jsonl"];

describe("agent: one query as the bench runs it", () => {
  it("gives the bench's trace and score for a dataset item's query", async () => {
    const bench = await runBench({
      request: benchRequest({ models: ["sim:slm-3b"], configs: CONFIGS, filter: { id: ITEMS }, seed: 4 }),
      resultsRoot: root,
    });
    const records = recordContents(bench.dir);
    expect(records).toHaveLength(ITEMS.length * CONFIGS.length);
    for (const { key, content } of records) {
      const [model, configName, itemId] = key.split("|") as [string, string, string];
      const { result, score, item } = await runAgentQuery({
        itemId,
        model,
        configName,
        seed: 4,
        transport: "memory",
      });
      expect(item?.id).toBe(itemId);
      const record = content as { result: unknown; score: unknown };
      expect(withoutTiming(result), key).toEqual(record.result);
      expect(withoutTiming(score), key).toEqual(record.score);
    }
  }, 120_000);
});

describe("agent CLI", () => {
  it("prints the trace, labels simulated answers, and fails with one line on bad input", async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, "close");

    const [item, free, json, noQuery, unreachable] = await Promise.all([
      runCli(["agent", "--item", "gh-q001", "--model", "sim:slm-7b", "--transport", "stdio"]),
      runCli(["agent", "Tell me a joke about compilers", "--model", "sim:oracle", "--config", "rewoo", "--verbose"]),
      runCli(["agent", "What open issues do we have in acme/webapp?", "--model", "sim:oracle", "--json"]),
      runCli(["agent", "--model", "sim:oracle"]),
      runCli(["agent", "--item", "gh-s001", "--model", "qwen2.5:3b"], { OLLAMA_HOST: `http://127.0.0.1:${port}` }),
    ]);

    expect(item.stderr).toBe("");
    expect(item.code).toBe(0);
    expect(item.stdout).toContain(
      "model       sim:slm-7b (simulated: answers from the gold labels of dataset item gh-q001)",
    );
    expect(item.stdout).toMatch(/^route {7}REWOO by rule \w+ · relevance [\d.]+ · model not asked$/m);
    expect(item.stdout).toMatch(/^tools {7}\d+ of \d+ shown to the model: \w+ [\d.]+ · /m);
    expect(item.stdout).toMatch(/^model calls \d+$/m);
    expect(item.stdout).toMatch(/#1 planner complete · \d+→\d+ tokens · [\d.]+ ms \(simulated [\d.]+ m?s\)/);
    expect(item.stdout).toMatch(/^score {7}[✓✗] .* — as the bench scores item gh-q001 \(sequence\)$/m);
    expect(item.stdout).toMatch(/state [✓✗] thread_resolved on github/);
    expect(item.stdout).not.toContain("prompt:");

    expect(free.code).toBe(0);
    expect(free.stdout).toContain(
      "(simulated: the simulator answers dataset queries only, and this is no dataset item's)",
    );
    expect(free.stderr).toMatch(/^note: sim:oracle answers dataset queries only .*\n/);
    expect(free.stderr).toMatch(/^Run one with --item ID, or ask a real model/m);
    expect(free.stdout).toContain("config      rewoo: strategy rewoo");
    expect(free.stdout).toContain("prompt:");
    expect(free.stdout).toContain("Task: Tell me a joke about compilers");
    expect(free.stdout).not.toMatch(/^score/m);

    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    const result = JSON.parse(json.stdout) as { query: string; path: string; toolCalls: { tool: string }[] };
    expect(result.query).toBe("What open issues do we have in acme/webapp?");
    expect(result.toolCalls.map((call) => call.tool)).toEqual(["list_issues"]);

    expect(noQuery).toMatchObject({
      code: 2,
      stdout: "",
      stderr: 'error: give a query ("…") or --item ID, exactly one of them\n',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe("");
    expect(unreachable.stderr).toMatch(
      new RegExp(
        `^error: cannot reach Ollama at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED: connection refused\\): start it with \`ollama serve\`.*\\n$`,
      ),
    );
  }, 120_000);
});
