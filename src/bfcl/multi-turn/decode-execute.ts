/**
 * BFCL's `decode_execute`: one step of a multi-turn result → the call texts it runs.
 * - prompt mode (a string): `default_decode_execute_prompting` — trim, bracket, parse as Python
 *   (the v3 track's decoder), then `decoded_output_to_execution_list`: `name(k=v, …)` with values
 *   printed by `parse_nested_value` (a dict of dicts is a nested call, another dict `{'k': v}`,
 *   anything else its repr);
 * - FC mode (a list of `{name: arguments}`, arguments an object or JSON text):
 *   `convert_to_function_call` — `name(k=repr(v),…)`.
 * A step that cannot be decoded throws, as BFCL's does; the runner then drops it.
 */

import { decodePromptOutput } from "../../python/decode-output.ts";
import { parseTaggedJson } from "../../python/json-tagged.ts";
import { type PyValue, pyRepr } from "../../python/value.ts";

export type DecodeMode = "prompt" | "fc";

export class StepDecodeError extends Error {}

function nestedValue(value: PyValue): string {
  if (value.kind !== "dict") return pyRepr(value);
  if (value.entries.every(([, v]) => v.kind === "dict")) {
    const first = value.entries[0];
    if (!first) throw new StepDecodeError("list index out of range");
    const [name, args] = first;
    if (args.kind !== "dict") throw new StepDecodeError("not a call");
    const text = args.entries.map(([k, v]) => `${keyText(k)}=${nestedValue(v)}`).join(", ");
    return `${keyText(name)}(${text})`;
  }
  return `{${value.entries.map(([k, v]) => `'${keyText(k)}': ${nestedValue(v)}`).join(", ")}}`;
}

function keyText(k: PyValue): string {
  return k.kind === "str" ? k.value : pyRepr(k);
}

function decodePromptStep(step: string): string[] {
  const decoded = decodePromptOutput(step);
  if (!decoded.ok) throw new StepDecodeError(decoded.reason);
  return decoded.calls.map(
    (call) => `${call.name}(${[...call.args].map(([k, v]) => `${k}=${nestedValue(v)}`).join(", ")})`,
  );
}

function decodeFcStep(step: PyValue): string[] {
  const calls = step.kind === "dict" ? [step] : step.kind === "list" ? step.items : undefined;
  if (!calls) throw new StepDecodeError(`'${step.kind}' object is not a list of function calls`);
  const out: string[] = [];
  for (const call of calls) {
    if (call.kind !== "dict") throw new StepDecodeError(`'${call.kind}' object has no attribute 'items'`);
    for (const [name, raw] of call.entries) {
      const args = raw.kind === "str" ? parseTaggedJson(raw.value) : raw;
      if (args.kind !== "dict") throw new StepDecodeError(`'${args.kind}' object has no attribute 'items'`);
      out.push(`${keyText(name)}(${args.entries.map(([k, v]) => `${keyText(k)}=${pyRepr(v)}`).join(",")})`);
    }
  }
  return out;
}

/** One step's call texts; throws StepDecodeError (or a JSON error) where BFCL's decoder would raise. */
export function decodeExecuteStep(step: PyValue, mode: DecodeMode): string[] {
  if (mode === "prompt") {
    if (step.kind !== "str") throw new StepDecodeError(`a prompt-mode step must be text, got ${step.kind}`);
    return decodePromptStep(step.value);
  }
  return decodeFcStep(step);
}

/** BFCL's is_empty_execute_response: no calls, or one empty one. */
export function isEmptyExecuteResponse(calls: readonly string[]): boolean {
  return calls.length === 0 || (calls.length === 1 && calls[0]!.length === 0);
}
