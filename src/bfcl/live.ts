/**
 * BFCL v4's live categories (user-contributed queries: live_simple, live_multiple, live_parallel,
 * live_parallel_multiple, live_irrelevance, live_relevance) as the project uses them: read by the
 * same catalog as v3's, scored by the same BFCL-mode checker, served by the same per-question MCP
 * server. Their function docs are messier than v3's, so each category is audited: an entry the
 * project cannot use — a doc that is no JSON Schema, a function documented twice, a ground truth
 * naming a function the entry does not offer, ground-truth arguments its own schema rejects, or a
 * ground truth BFCL's own checker fails (its data lacks a required argument…) — is counted and named with its reason, never dropped silently: through MCP, even the right answer
 * would be refused. The audit also replays every entry's ground truth through BFCL's checker.
 */

import type { ValidateFunction } from "ajv";
import { compileSchema, createAjv, describeArgumentErrors } from "../../mock-servers/kit/validation.ts";
import { decodeOutput } from "../python/decode-output.ts";
import { type PyValue, py, pyRepr, toJson } from "../python/value.ts";
import { loadCategory } from "./catalog.ts";
import { checkEntry } from "./checker.ts";
import { bfclFunctionToTool } from "./import.ts";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import type { BfclFunctionDoc, BfclParamDoc, BfclQuestion, ExpectedCall } from "./types.ts";

export const LIVE_CATEGORIES = [
  "live_simple",
  "live_multiple",
  "live_parallel",
  "live_parallel_multiple",
  "live_irrelevance",
  "live_relevance",
] as const;

export interface UnusableEntry {
  readonly id: string;
  readonly reason: string;
}

export interface LiveAudit {
  readonly category: string;
  readonly entries: number;
  readonly usable: number;
  readonly unusable: readonly UnusableEntry[];
  /** Entries whose ground truth, replayed, BFCL's checker passes (all of them, usable or not). */
  readonly goldPassed: number;
  readonly goldFailed: readonly UnusableEntry[];
}

const omitted = (v: PyValue): boolean => (v.kind === "str" && v.value === "") || v.kind === "none";

/**
 * A concrete value from BFCL's acceptable ones: the first that is given (`""` or None marks an
 * argument that may be left out); inside a dict, each key again holds a list of acceptable values.
 */
function goldValue(acceptable: readonly PyValue[]): PyValue | undefined {
  const value = acceptable.find((v) => !omitted(v)) ?? acceptable.find((v) => v.kind === "none");
  return value === undefined ? undefined : unwrap(value);
}

function unwrap(value: PyValue): PyValue {
  if (value.kind === "dict") {
    const entries: [PyValue, PyValue][] = [];
    for (const [k, v] of value.entries) {
      const chosen = v.kind === "list" ? goldValue(v.items) : v;
      if (chosen !== undefined && !omitted(chosen)) entries.push([k, chosen]);
    }
    return py.dict(entries);
  }
  if (value.kind === "list") return py.list(value.items.map((item) => (item.kind === "dict" ? unwrap(item) : item)));
  return value;
}

/** One value per expected argument; arguments BFCL lets a call leave out are left out. */
function goldArguments(call: ExpectedCall): [string, ReturnType<typeof toJson>, string][] {
  const out: [string, ReturnType<typeof toJson>, string][] = [];
  for (const [name, acceptable] of call.args) {
    const value = goldValue(acceptable);
    const mayLeaveOut = acceptable.some((v) => v.kind === "str" && v.value === "");
    if (value && !(mayLeaveOut && omitted(value))) out.push([name, toJson(value), pyRepr(value)]);
  }
  return out;
}

/** A placeholder for a required parameter of the given type (relevance has no ground truth: any call is right). */
function placeholder(doc: BfclParamDoc | undefined): string {
  switch (doc?.type) {
    case "integer":
      return "1";
    case "float":
      return "1.0";
    case "boolean":
      return "True";
    case "array":
    case "tuple":
      return "[]";
    case "dict":
      return "{}";
    default:
      return "'x'";
  }
}

/** The ground truth as a prompt-mode output: `[f(a=1), g(b='x')]`; no call for irrelevance. */
export function goldOutput(category: string, question: BfclQuestion, expected: readonly ExpectedCall[]): string {
  if (category.includes("irrelevance")) return "No function fits this request.";
  if (category.includes("relevance")) {
    const doc = question.function[0];
    if (!doc) return "";
    const required = doc.parameters.required ?? [];
    const args = required.map((p) => `${p}=${placeholder(doc.parameters.properties[p])}`);
    return `[${doc.name}(${args.join(", ")})]`;
  }
  return `[${expected
    .map(
      (call) =>
        `${call.name}(${goldArguments(call)
          .map(([k, , text]) => `${k}=${text}`)
          .join(", ")})`,
    )
    .join(", ")}]`;
}

function whyUnusable(
  question: BfclQuestion,
  expected: readonly ExpectedCall[],
  validators: Map<BfclFunctionDoc, ValidateFunction | string>,
  compile: (doc: BfclFunctionDoc) => ValidateFunction | string,
): string | undefined {
  const names = question.function.map((doc) => doc.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) return `function ${twice} is documented twice`;
  for (const doc of question.function) {
    const validate = validators.get(doc) ?? compile(doc);
    validators.set(doc, validate);
    if (typeof validate === "string") return `function ${doc.name}: ${validate}`;
  }
  for (const call of expected) {
    if (call.problem) return `ground truth of ${call.name}: ${call.problem}`;
    const doc = question.function.find((d) => d.name === call.name);
    if (!doc) return `ground truth calls ${call.name}, which the entry does not offer`;
    const validate = validators.get(doc) as ValidateFunction;
    const args = Object.fromEntries(goldArguments(call).map(([k, v]) => [k, v]));
    if (!validate(args))
      return `ground truth of ${call.name} fails its own schema: ${describeArgumentErrors(validate.errors).messages.join("; ")}`;
  }
  return undefined;
}

/** BFCL's verdict on the entry's own ground truth, given as a prompt-mode output (the gold replay). */
export function goldVerdict(category: string, question: BfclQuestion, expected: readonly ExpectedCall[]) {
  return checkEntry(category, question.function, decodeOutput(goldOutput(category, question, expected)), expected);
}

export function auditLiveCategory(category: string, dataDir: string = DEFAULT_BFCL_DATA_DIR): LiveAudit {
  const data = loadCategory(dataDir, category);
  const ajv = createAjv();
  const validators = new Map<BfclFunctionDoc, ValidateFunction | string>();
  const compile = (doc: BfclFunctionDoc): ValidateFunction | string => {
    try {
      return compileSchema(ajv, bfclFunctionToTool(doc).inputSchema);
    } catch (error) {
      return `its parameters do not make a valid JSON Schema (${(error as Error).message})`;
    }
  };
  const unusable: UnusableEntry[] = [];
  const goldFailed: UnusableEntry[] = [];
  for (const question of data.questions.values()) {
    const expected = data.answers.get(question.id) ?? [];
    const reason = whyUnusable(question, expected, validators, compile);
    if (reason) unusable.push({ id: question.id, reason });
    const verdict = goldVerdict(category, question, expected);
    if (verdict.valid) continue;
    const failure = `BFCL's checker fails the ground truth itself (${verdict.errorType}: ${verdict.error[0] ?? ""})`;
    goldFailed.push({ id: question.id, reason: failure });
    if (!reason) unusable.push({ id: question.id, reason: failure });
  }
  const entries = data.questions.size;
  return {
    category,
    entries,
    usable: entries - unusable.length,
    unusable,
    goldPassed: entries - goldFailed.length,
    goldFailed,
  };
}
