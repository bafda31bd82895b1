import type { Command } from "commander";
import { measureMcp } from "../bench/perf/mcp.ts";
import { formatBfclPerf, measureBfclScoring } from "../bfcl/perf.ts";
import { loadRegistry } from "../mcp/registry.ts";
import { FlagError, parsePositiveInt } from "./flags.ts";

const SUBJECTS = ["mcp", "bfcl"] as const;

export function registerPerfCommand(program: Command): void {
  program
    .command("perf")
    .description("speed and memory figures (tinybench-style scripts, not unit tests)")
    .argument("[subject]", `what to measure: ${SUBJECTS.join(" | ")}`, "mcp")
    .option("--json", "print JSON for machines")
    .option("--calls <n>", "round trips per transport", "2000")
    .option("--runs <n>", "bfcl: fresh-process runs of each command", "5")
    .action(async (subject: string, options: { json?: boolean; calls: string; runs: string }) => {
      if (!(SUBJECTS as readonly string[]).includes(subject)) {
        throw new FlagError("BAD_FLAG", `perf subject must be one of ${SUBJECTS.join(", ")}, not "${subject}"`);
      }
      if (subject === "bfcl") {
        process.stderr.write("measuring BFCL scoring of ../shared/bfcl (in-process, then fresh processes)…\n");
        const report = await measureBfclScoring({ runs: parsePositiveInt("--runs", options.runs) });
        process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : formatBfclPerf(report));
        return;
      }
      const calls = parsePositiveInt("--calls", options.calls);
      process.stderr.write(`measuring MCP round trips (${calls} calls per transport)…\n`);
      const report = await measureMcp(loadRegistry(), { calls, tool: "get_me", args: {} });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(report)}\n`);
        return;
      }
      const ms = (value: number) => `${value.toFixed(3)} ms`;
      process.stdout.write(
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
