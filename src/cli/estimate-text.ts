/** `bench --estimate` on a terminal: per model the calls, the tokens, what the caches save, the speed and the ETA. */
import type { BenchEstimate, ModelEstimate } from "../bench/run/estimate.ts";
import { factLines } from "./wrap.ts";

/** The estimate's lines, each wrapped within `width` (a terminal's) under its value's column. */
export function estimateText(estimate: BenchEstimate, width?: number): string {
  const fact = (label: string, text: string) => factLines(`  ${label.padEnd(18)}`, text, width);
  const lines = [`estimate for ${estimate.tasks} tasks (no model was asked: the simulator's dry pass)`];
  for (const model of estimate.models) lines.push(...modelLines(model, fact));
  lines.push(...fact("harness work", `${durationText(estimate.harnessMs)} (the dry pass's own time)`));
  lines.push(
    ...fact(
      "ETA",
      estimate.etaMs === undefined ? "— (simulated models only: no server to time)" : durationText(estimate.etaMs),
    ),
  );
  return `${lines.join("\n")}\n`;
}

function modelLines(model: ModelEstimate, fact: (label: string, text: string) => string[]): string[] {
  const lines = [
    `${model.model}:`,
    ...fact(
      "model calls",
      `${count(model.modelCalls)} (prompt tokens ${count(model.promptTokens)}, completion tokens ${count(model.completionTokens)})`,
    ),
    ...fact("already cached", `${count(model.cached)}; repeats in this run ${count(model.repeated)} (sent once)`),
    ...fact(
      "to the server",
      `${count(model.toSend)} requests, ${count(model.sentPromptTokens)} prompt tokens of which ${count(model.evaluatedPromptTokens)} evaluated (the rest a prefix its cache holds), ${count(model.sentCompletionTokens)} generated`,
    ),
  ];
  if (model.speed) {
    const { speed } = model;
    lines.push(
      ...fact(
        "server speed",
        `${speed.promptTokensPerSec.toFixed(0)} prompt tokens/s, ${speed.genTokensPerSec.toFixed(1)} generated tokens/s, ` +
          `${speed.overheadMs.toFixed(0)} ms a request beyond both, load ${speed.loadMs.toFixed(0)} ms (one timed request${speed.from === "whole" ? ", no durations reported: timed whole" : ""})`,
      ),
      ...fact("model time", durationText(model.modelMs ?? 0)),
    );
  }
  return lines;
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** `2h 05m`, `3m 20s`, `12.5s`. */
export function durationText(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}
