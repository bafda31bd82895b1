/**
 * `perf fuzz` and the slow fuzz suite: the hostile corpus (src/agent/testing/fuzz-corpus.ts) through every
 * parser of model output, then part of it through the agent end to end (a scripted model that answers
 * every stage with the input, over in-process mock servers). Figures: inputs, escaped exceptions, the
 * slowest parse (which parser, which input), p99, and heap growth after garbage collection.
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { chatSpec, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../agent/agent.ts";
import { parseCallArguments, parseLooseValue } from "../../agent/call-syntax.ts";
import { parseJsonl } from "../../agent/jsonl.ts";
import { parseActionInput, parseLooseJson } from "../../agent/loose-json.ts";
import { parsePlan } from "../../agent/plan-parser.ts";
import { parseReactOutput } from "../../agent/react.ts";
import { MAX_OUTPUT_CHARS } from "../../agent/recorder.ts";
import { parseRouterAnswer } from "../../agent/router.ts";
import { cleanAnswer } from "../../agent/solver.ts";
import { SAMPLE_TOOLS } from "../../agent/testing/definitions.ts";
import { type FuzzInput, fuzzCorpus } from "../../agent/testing/fuzz-corpus.ts";
import { findTextCalls } from "../../agent/text-calls.ts";
import type { Strategy } from "../../agent/types.ts";
import { ScriptedModel } from "../../models/scripted.ts";
import { parseToolArguments } from "../../models/tool-arguments.ts";
import { decodeOutput } from "../../python/decode-output.ts";
import { readPlanText } from "../scoring/plan-text.ts";
import { percentile } from "../stats/percentile.ts";

const toolNames = new Set(SAMPLE_TOOLS.map((tool) => tool.name));

/** Every reader of model text, as the agent, the scorer and the BFCL track call them. */
export const FUZZ_PARSERS: readonly { name: string; parse: (text: string) => unknown }[] = [
  { name: "plan", parse: (text) => parsePlan(text, SAMPLE_TOOLS) },
  { name: "call arguments", parse: (text) => parseCallArguments(`(${text}`, 0) },
  { name: "loose value", parse: parseLooseValue },
  { name: "react", parse: parseReactOutput },
  { name: "jsonl", parse: parseJsonl },
  { name: "loose json", parse: parseLooseJson },
  { name: "action input", parse: parseActionInput },
  { name: "native arguments", parse: parseToolArguments },
  { name: "router", parse: parseRouterAnswer },
  { name: "solver", parse: cleanAnswer },
  { name: "plan text (scoring)", parse: (text) => readPlanText(text, (name) => toolNames.has(name)) },
  { name: "bfcl python", parse: (text) => decodeOutput(text) },
  { name: "bfcl lenient", parse: (text) => decodeOutput(text, { lenient: true }) },
  { name: "tool calls as text", parse: (text) => findTextCalls(text, toolNames) },
];

export const FUZZ_STRATEGIES: readonly Strategy[] = ["rewoo", "react", "jsonl", "native"];

export interface FuzzEscape {
  where: string;
  origin: string;
  chars: number;
  error: string;
}

export interface FuzzSlowest {
  /** Best of RETRIES timings of the run that was slowest so (among the RETIMED slowest of the pass). */
  ms: number;
  /** Its time in the pass itself. */
  firstMs: number;
  where: string;
  origin: string;
  chars: number;
}

export interface FuzzStageReport {
  /** Inputs read, and parses (inputs × parsers) or agent runs (inputs × strategies). */
  inputs: number;
  runs: number;
  escapes: number;
  /** The first escapes (at most 20), to reproduce. */
  escaped: FuzzEscape[];
  slowest: FuzzSlowest;
  p99Ms: number;
}

export interface FuzzReport {
  seed: number;
  parsers: FuzzStageReport;
  agent: FuzzStageReport & {
    /** Runs whose model output was longer than MAX_OUTPUT_CHARS and recorded as cut. */
    cut: number;
  };
  /** heapUsed after a full collection, after minus before (MB). */
  heapGrowthMb: number;
  /** Whether a full collection could be forced (else heap growth counts garbage too). */
  gcForced: boolean;
}

export interface FuzzOptions {
  inputs: number;
  /** Inputs also run through the agent, once per strategy. */
  agentInputs: number;
  seed: number;
}

export async function measureFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const inputs = fuzzCorpus(options.inputs, options.seed);
  // the agent's share: every tenth input, plus outputs past the cut (the recorder must cut them)
  const agentInputs = fuzzCorpus(options.agentInputs, options.seed + 2, 4 * MAX_OUTPUT_CHARS);
  const gc = garbageCollector();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const parsers = await fuzzParsers(inputs);
  const agent = await fuzzAgent(agentInputs);
  gc?.();
  const after = process.memoryUsage().heapUsed;
  return { seed: options.seed, parsers, agent, heapGrowthMb: (after - before) / 2 ** 20, gcForced: gc !== undefined };
}

/** Every input, cut as the recorder cuts it, through every parser; each result must be printable. */
export async function fuzzParsers(inputs: readonly FuzzInput[]): Promise<FuzzStageReport> {
  const stage = new StageStats(inputs.length);
  for (const input of inputs) {
    const text = input.text.slice(0, MAX_OUTPUT_CHARS);
    for (const parser of FUZZ_PARSERS)
      await stage.measure(parser.name, input, () => JSON.stringify(parser.parse(text)));
  }
  return stage.report();
}

/** Each input as every stage's answer of a scripted model, through runAgent once per strategy. */
export async function fuzzAgent(inputs: readonly FuzzInput[]): Promise<FuzzStageReport & { cut: number }> {
  const host = await MemoryToolHost.open([hubSpec, chatSpec]);
  const stage = new StageStats(inputs.length);
  let cut = 0;
  const run = async (input: FuzzInput, strategy: Strategy) => {
    host.reset();
    host.received.length = 0;
    const result = await runAgent("Who am I on GitHub? Then list the open issues in acme/webapp", {
      model: scriptedEcho(input.text),
      tools: host,
      config: {
        strategy,
        fallbackIterations: 1,
        limits: { reactMaxIterations: 2, jsonlMaxIterations: 2, nativeMaxCalls: 2 },
      },
    });
    // a record must be writable whatever the model wrote
    JSON.stringify(result);
    return result.modelCalls.some((call) => call.outputCut);
  };
  try {
    for (const input of inputs) {
      for (const strategy of FUZZ_STRATEGIES) {
        if (await stage.measure(strategy, input, () => run(input, strategy))) cut += 1;
      }
    }
    return { ...(await stage.report()), cut };
  } finally {
    await host.close();
  }
}

/** A scripted model that answers every stage with `text` (native: also one call with `text` as its arguments). */
function scriptedEcho(text: string): ScriptedModel {
  const replies = (count: number) => Array.from({ length: count }, () => text);
  const native = { text, toolCalls: [{ name: "list_issues", ...parseToolArguments(text) }] };
  return new ScriptedModel({
    router: replies(1),
    planner: replies(1),
    fallback: replies(2),
    react: replies(3),
    jsonl: replies(3),
    native: [native, native, native],
    solver: replies(2),
  });
}

/** The slowest runs are timed again, best of RETRIES: a garbage collection or a busy machine is not the input's cost. */
const RETIMED = 20;
const RETRIES = 5;

interface Sample {
  ms: number;
  where: string;
  input: FuzzInput;
  run: () => unknown;
}

class StageStats {
  private readonly times: number[] = [];
  private readonly escapes: FuzzEscape[] = [];
  private escapeCount = 0;
  /** The RETIMED slowest runs so far, slowest first. */
  private readonly slowest: Sample[] = [];

  constructor(private readonly inputs: number) {}

  /** Times one run; an exception is counted as an escape, never thrown. */
  async measure<T>(where: string, input: FuzzInput, run: () => T | Promise<T>): Promise<T | undefined> {
    const started = performance.now();
    try {
      const value = await run();
      this.record({ ms: performance.now() - started, where, input, run });
      return value;
    } catch (error) {
      this.escapeCount += 1;
      if (this.escapes.length < 20) {
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        this.escapes.push({ where, origin: input.origin, chars: input.text.length, error: message.slice(0, 200) });
      }
      return undefined;
    }
  }

  private record(sample: Sample): void {
    this.times.push(sample.ms);
    if (this.slowest.length === RETIMED && sample.ms <= (this.slowest.at(-1)?.ms ?? 0)) return;
    this.slowest.push(sample);
    this.slowest.sort((a, b) => b.ms - a.ms);
    this.slowest.length = Math.min(this.slowest.length, RETIMED);
  }

  async report(): Promise<FuzzStageReport> {
    let slowest: FuzzSlowest = { ms: 0, firstMs: 0, where: "", origin: "", chars: 0 };
    for (const sample of this.slowest) {
      let best = sample.ms;
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        const started = performance.now();
        await sample.run();
        best = Math.min(best, performance.now() - started);
      }
      if (best > slowest.ms) {
        const { where, input } = sample;
        slowest = { ms: best, firstMs: sample.ms, where, origin: input.origin, chars: input.text.length };
      }
    }
    return {
      inputs: this.inputs,
      runs: this.times.length + this.escapeCount,
      escapes: this.escapeCount,
      escaped: this.escapes,
      slowest,
      p99Ms: percentile(this.times, 99),
    };
  }
}

/** `gc()` when the process may force a collection (node's --expose-gc, switched on here at run time). */
function garbageCollector(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export function formatFuzzReport(report: FuzzReport): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const stage = (name: string, figures: FuzzStageReport, unit: string) =>
    [
      `${name}: ${figures.inputs} inputs, ${figures.runs} ${unit}, ${figures.escapes} escaped exceptions`,
      `  slowest ${ms(figures.slowest.ms)} (best of ${RETRIES}; ${ms(figures.slowest.firstMs)} in the pass) ${figures.slowest.where} on ${figures.slowest.origin}, ${figures.slowest.chars} chars   p99 ${ms(figures.p99Ms)}   target: none over 100 ms`,
      ...figures.escaped.map((found) => `  escaped from ${found.where} on ${found.origin}: ${found.error}`),
    ].join("\n");
  return [
    `fuzz corpus (seed ${report.seed}), model output cut at ${MAX_OUTPUT_CHARS} chars`,
    stage("parsers", report.parsers, "parses"),
    stage("agent", report.agent, "runs"),
    `  ${report.agent.cut} runs got an output past the cut, recorded as cut`,
    `heap growth ${report.heapGrowthMb.toFixed(1)} MB${report.gcForced ? " (after a full GC)" : " (no forced GC: includes garbage)"}`,
    "",
  ].join("\n");
}
