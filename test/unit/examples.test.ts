/**
 * The programs in examples/ run as a user would run them: the agent on an in-process server of one's
 * own, a provider from a module named in models.yaml, and a metric from outside src/ reaching the CLI's
 * `--json`, its terminal table and the markdown report.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { askWithModuleProvider } from "../../examples/module-provider/run.ts";
import { askInventory } from "../../examples/own-server.ts";
import { clearCustomMetrics } from "../../src/index.ts";
import { tempResultsDir } from "../support/results-dir.ts";

const results = tempResultsDir("examples-");
const { buildProgram } = await import("../../src/cli/program.ts");

afterAll(() => {
  clearCustomMetrics();
  rmSync(results, { recursive: true, force: true });
});

/** Runs the CLI in process and returns what it printed on stdout. */
async function cli(...args: string[]): Promise<string> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const quiet = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    await buildProgram().parseAsync(["node", "onsetlab", ...args]);
  } finally {
    spy.mockRestore();
    quiet.mockRestore();
  }
  return out;
}

describe("examples", () => {
  it("own-server: the agent calls the tool of an in-process McpServer and answers from its result", async () => {
    const result = await askInventory("How many widgets do we have?");
    expect(result.toolCalls.map((call) => [call.tool, call.args, call.ok])).toEqual([
      ["get_stock", { product: "widget" }, true],
    ]);
    expect(result.answer).toBe("There are 12 widgets in stock.");
  });

  it("module-provider: models.yaml's module:./provider.ts builds the model, with its settings", async () => {
    const { providerId, result } = await askWithModuleProvider("How many widgets are in stock?");
    expect(providerId).toBe("module:./provider.ts:keyword");
    expect(result.toolCalls.map((call) => [call.tool, call.args])).toEqual([["get_stock", { product: "widget" }]]);
    expect(result.answer).toMatch(/^keyword model: .*"?units"?: 12/s);
  });

  it("custom-metric: the metric module reaches --json, the terminal table and the markdown report", async () => {
    const bench = ["bench", "--models", "examples/custom-metric/models.yaml", "--model", "sim-3b"];
    const sample = ["--filter", "category=single|sequence", "--limit", "6"];
    const json = JSON.parse(await cli(...bench, ...sample, "--json")) as {
      runId: string;
      rows: Record<string, unknown>[];
    };
    const [row] = json.rows;
    expect(row).toMatchObject({ model: "sim-3b", config: "native", n: 6 });
    expect(row!.noExtraCalls).toEqual(expect.any(Number));
    expect(row!.noExtraCallsCi).toHaveLength(2);

    expect(await cli(...bench, ...sample)).toMatch(/no extra calls/);

    const out = join(results, "report");
    await cli("report", json.runId, "--out", out);
    const leaderboard = readFileSync(join(out, "report.md"), "utf8");
    const header = leaderboard.split("\n").find((line) => line.includes("task success"))!;
    expect(header).toContain("no extra calls");
  }, 60_000);
});
