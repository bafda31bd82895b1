/** `perf [harness|mcp|bfcl|multi-turn|multi-turn-run|fuzz|view|view-page|model-time] [--json]`: speed and memory figures, measured by scripts (never unit tests). */
import { loadavg } from "node:os";
import type { Command } from "commander";
import { formatConversationTime, measureConversationTime } from "../bench/perf/conversation-time.ts";
import { measureHarness } from "../bench/perf/harness.ts";
import { measureMcp } from "../bench/perf/mcp.ts";
import { formatModelTime, measureModelTime } from "../bench/perf/model-time.ts";
import { formatViewPerf, measureView } from "../bench/perf/view.ts";
import { formatViewPagePerf, measureViewPage } from "../bench/perf/view-page.ts";
import { formatBfclPerf, measureBfclScoring } from "../bfcl/perf.ts";
import { loadRegistry } from "../mcp/registry.ts";
import { FlagError, parsePositiveInt } from "./flags.ts";

const SUBJECTS = [
  "harness",
  "mcp",
  "bfcl",
  "multi-turn",
  "multi-turn-run",
  "fuzz",
  "view",
  "view-page",
  "model-time",
] as const;

interface PerfFlags {
  json?: boolean;
  calls: string;
  runs?: string;
  stdioRuns: string;
  model: string;
  matrix: string;
  config?: string;
  concurrency: string;
  threads?: string;
  inputs: string;
  agentInputs: string;
  seed: string;
  records: string;
  requests: string;
  loads: string;
  root?: string;
  limit: string;
  timeScale: string;
  dataset?: string;
}

export function registerPerfCommand(program: Command): void {
  program
    .command("perf")
    .description("speed and memory figures (benchmark scripts, not unit tests)")
    .argument("[subject]", `what to measure: ${SUBJECTS.join(" | ")}`, "harness")
    .option("--json", "print JSON for machines")
    .option("--calls <n>", "mcp: round trips per transport", "2000")
    .option("--runs <n>", "harness: agent runs in memory (default 10000); bfcl: fresh-process runs (default 5)")
    .option("--stdio-runs <n>", "harness: agent runs over stdio", "2000")
    .option("--model <name>", "harness: the simulator profile to run", "sim:slm-3b")
    .option("--matrix <name>", "harness, model-time: the matrix of models.yaml", "default")
    .option("--concurrency <n>", "harness: queries in flight in memory (over stdio: 4)", "1")
    .option("--threads <n>", "harness: threads of each run (default: one per core)")
    .option("--inputs <n>", "fuzz: hostile outputs through every parser", "10000")
    .option("--agent-inputs <n>", "fuzz: of which also through the agent, once per strategy", "100")
    .option("--seed <n>", "fuzz: the corpus's seed", "17")
    .option("--records <n>", "view: records of the run served (built once, then reused)", "5000")
    .option("--requests <n>", "view: requests of each kind", "200")
    .option("--loads <n>", "view-page: page loads in Chromium after the first", "20")
    .option("--root <dir>", "view, view-page: the results folder holding the run (default: one in the temp folder)")
    .option(
      "--config <names>",
      "model-time: these configurations instead of --matrix; multi-turn-run: the configurations (default native); comma-separated",
    )
    .option("--limit <n>", "model-time: items of the matrix", "100")
    .option(
      "--dataset <file>",
      "model-time: a file of conversations instead of the matrix's items (--limit: its first N)",
    )
    .option("--time-scale <factor>", "model-time: every modelled time × this (the stand-in's --time-scale)", "0.05")
    .action(async (subject: string, options: PerfFlags) => {
      if (!(SUBJECTS as readonly string[]).includes(subject)) {
        throw new FlagError("BAD_FLAG", `perf subject must be one of ${SUBJECTS.join(", ")}, not "${subject}"`);
      }
      const write = (json: unknown, text: string) =>
        process.stdout.write(options.json ? `${JSON.stringify(json)}\n` : text);
      if (subject === "harness") {
        const runs = parsePositiveInt("--runs", options.runs ?? "10000");
        const stdioRuns = parsePositiveInt("--stdio-runs", options.stdioRuns);
        process.stderr.write(
          `measuring the harness on ${options.model}: ${runs} runs in memory, ${stdioRuns} over stdio…\n`,
        );
        const report = await measureHarness({
          runs,
          stdioRuns,
          model: options.model,
          matrix: options.matrix,
          concurrency: parsePositiveInt("--concurrency", options.concurrency),
          threads: options.threads === undefined ? undefined : parsePositiveInt("--threads", options.threads),
        });
        const rate = (value: number) => `${value.toFixed(0)} runs/s`;
        const ms = (value: number) => `${value.toFixed(3)} ms`;
        const threads = (count: number) => `${count} thread${count === 1 ? "" : "s"}`;
        write(
          report,
          [
            `harness on ${report.model} (simulated model), matrix ${report.matrix}; load average ${loadAverage()}`,
            `in-memory  ${rate(report.inMemoryRunsPerSec)} over ${report.inMemoryRuns} runs, ${threads(report.inMemoryThreads)}   target ≥ 1000 runs/s`,
            `stdio      ${rate(report.stdioRunsPerSec)} over ${report.stdioRuns} runs, ${threads(report.stdioThreads)}   target ≥ 300 runs/s`,
            `overhead per run p50/p95  ${ms(report.overheadP50Ms)} / ${ms(report.overheadP95Ms)}   target p50 ≤ 1 ms`,
            `peak RSS  ${report.peakRssMb.toFixed(0)} MB   target ≤ 300 MB`,
            "",
          ].join("\n"),
        );
        return;
      }
      if (subject === "model-time") {
        const timeScale = Number(options.timeScale);
        if (!Number.isFinite(timeScale) || timeScale <= 0) {
          throw new FlagError("BAD_FLAG", `--time-scale must be a number > 0, not "${options.timeScale}"`);
        }
        const common = {
          limit: parsePositiveInt("--limit", options.limit),
          ...(options.config ? { configs: options.config.split(",").map((name) => name.trim()) } : {}),
          timeScale,
          model: "qwen2.5:3b",
          seed: 1,
          log: (line: string) => process.stderr.write(`${line}\n`),
        };
        if (options.dataset) {
          const report = await measureConversationTime({ ...common, dataset: options.dataset });
          write(report.figures, formatConversationTime(report));
          return;
        }
        const report = await measureModelTime({ ...common, matrix: options.matrix });
        write(report.figures, formatModelTime(report));
        return;
      }
      if (subject === "fuzz") {
        const inputs = parsePositiveInt("--inputs", options.inputs);
        const agentInputs = parsePositiveInt("--agent-inputs", options.agentInputs);
        process.stderr.write(`fuzzing the parsers with ${inputs} outputs, the agent with ${agentInputs}…\n`);
        // loaded only here: the corpus is built with fast-check, a development dependency
        const { formatFuzzReport, measureFuzz } = await import("../bench/perf/fuzz.ts");
        const report = await measureFuzz({ inputs, agentInputs, seed: parsePositiveInt("--seed", options.seed) });
        write(report, formatFuzzReport(report));
        return;
      }
      if (subject === "view") {
        const records = parsePositiveInt("--records", options.records);
        process.stderr.write(`measuring the viewer API on a ${records}-record run (built on first use)…\n`);
        const report = await measureView({
          records,
          requests: parsePositiveInt("--requests", options.requests),
          ...(options.root ? { root: options.root } : {}),
        });
        write(report, formatViewPerf(report));
        return;
      }
      if (subject === "view-page") {
        const records = parsePositiveInt("--records", options.records);
        process.stderr.write(`timing the viewer's run page on a ${records}-record run in Chromium…\n`);
        const report = await measureViewPage({
          records,
          loads: parsePositiveInt("--loads", options.loads),
          ...(options.root ? { root: options.root } : {}),
        });
        write(report, formatViewPagePerf(report));
        return;
      }
      if (subject === "multi-turn") {
        process.stderr.write("measuring the BFCL v4 environments on ../shared/bfcl/v4 (every ground-truth call)…\n");
        const { measureMultiTurn, formatMultiTurnPerf } = await import("../bfcl/multi-turn/perf.ts");
        const report = measureMultiTurn({ runs: parsePositiveInt("--runs", options.runs ?? "3") });
        write(report, formatMultiTurnPerf(report));
        return;
      }
      if (subject === "multi-turn-run") {
        process.stderr.write("running BFCL's four multi-turn categories (800 entries) through the simulator…\n");
        const { measureMultiTurnRun, formatMultiTurnRunPerf } = await import("../bench/perf/multi-turn-run.ts");
        const report = await measureMultiTurnRun({
          ...(options.config ? { configs: options.config.split(",").map((name) => name.trim()) } : {}),
        });
        write(report, formatMultiTurnRunPerf(report));
        return;
      }
      if (subject === "bfcl") {
        process.stderr.write("measuring BFCL scoring of ../shared/bfcl (in-process, then fresh processes)…\n");
        const report = await measureBfclScoring({ runs: parsePositiveInt("--runs", options.runs ?? "5") });
        write(report, formatBfclPerf(report));
        return;
      }
      const calls = parsePositiveInt("--calls", options.calls);
      process.stderr.write(`measuring MCP round trips (${calls} calls per transport)…\n`);
      const report = await measureMcp(loadRegistry(), { calls, tool: "get_me", args: {} });
      const ms = (value: number) => `${value.toFixed(3)} ms`;
      write(
        report,
        [
          `servers ${report.servers}, tools ${report.tools}`,
          `connect all (stdio)     ${ms(report.connectAllStdioMs)}   target ≤ 2000 ms`,
          `connect all (in-memory) ${ms(report.connectAllMemoryMs)}`,
          `call p50/p95 in-memory  ${ms(report.memoryP50Ms)} / ${ms(report.memoryP95Ms)}   target p50 ≤ 0.1 ms`,
          `call p50/p95 stdio      ${ms(report.stdioP50Ms)} / ${ms(report.stdioP95Ms)}   target p50 ≤ 0.5 ms`,
          "",
        ].join("\n"),
      );
    });
}

/** Other work on the machine skews every figure: printed beside them. */
function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}
