/**
 * BFCL-mode scoring of one entry: the category rules on top of the shared argument matcher.
 * simple: exactly one call; multiple: one call, checked against the expected function;
 * parallel / parallel_multiple: as many calls as expected, each expected call matched by a distinct
 * model call in any order; irrelevance: passes when the output holds no decodable call.
 * Error types are BFCL's exact strings.
 */
import { checkCallArgs } from "../bench/scoring/arg-match.ts";
import type { DecodedCall, DecodeResult } from "../python/decode-output.ts";
import { pyStrRepr } from "../python/value.ts";
import type { BfclFunctionDoc, BfclVerdict, ExpectedCall } from "./types.ts";

export interface CheckOptions {
  /** Function-calling models whose API forbids dots in names: expected `a.b` is matched as `a_b`. */
  readonly dotsAsUnderscores?: boolean;
}

const VALID: BfclVerdict = { valid: true };

function fail(errorType: string, ...error: string[]): BfclVerdict {
  return { valid: false, errorType, error };
}

/** A failing verdict whose messages are built only when read (parallel matching makes many). */
function lazyFail(errorType: string, describe: () => string[]): BfclVerdict {
  let error: string[] | undefined;
  return {
    valid: false,
    errorType,
    get error() {
      error ??= describe();
      return error;
    },
  };
}

/** BFCL's dispatch is by substring of the category name, so live_/exec_ variants route the same way. */
export function checkEntry(
  category: string,
  functions: readonly BfclFunctionDoc[],
  decoded: DecodeResult,
  expected: readonly ExpectedCall[],
  options: CheckOptions = {},
): BfclVerdict {
  if (category.includes("relevance")) return checkRelevance(category, decoded);
  if (!decoded.ok) return fail("ast_decoder:decoder_failed", `Invalid syntax. Failed to decode AST. ${decoded.reason}`);
  const calls = decoded.calls;
  if (category.includes("parallel")) return checkParallel(functions, calls, expected, options);
  if (category.includes("multiple")) {
    if (calls.length !== expected.length)
      return fail("multiple_function_checker:wrong_count", "Wrong number of functions.");
    return checkCall(findDoc(functions, expected[0]!.name), calls[0]!, expected[0]!, options);
  }
  if (calls.length !== 1) return fail("simple_function_checker:wrong_count", "Wrong number of functions.");
  return checkCall(functions[0], calls[0]!, expected[0]!, options);
}

/** irrelevance: no call is right; relevance (live_relevance): some call is right. */
function checkRelevance(category: string, decoded: DecodeResult): BfclVerdict {
  const hasCall = decoded.ok && decoded.calls.length > 0;
  if (category.includes("irrelevance")) {
    return hasCall
      ? fail("irrelevance_error:decoder_success", "Valid syntax. Successfully decode AST when it should not.")
      : VALID;
  }
  return hasCall ? VALID : fail("relevance_error:decoder_failed", "Invalid syntax. Failed to decode AST.");
}

function findDoc(functions: readonly BfclFunctionDoc[], name: string): BfclFunctionDoc | undefined {
  return functions.find((f) => f.name === name);
}

const CALL_LEVEL = new Set(["missing_required", "unexpected_param", "missing_optional"]);

/** BFCL's simple_function_checker: name, then the arguments. */
export function checkCall(
  doc: BfclFunctionDoc | undefined,
  call: DecodedCall,
  expected: ExpectedCall,
  options: CheckOptions = {},
): BfclVerdict {
  if (expected.problem) return fail("simple_function_checker:bad_ground_truth", expected.problem);
  if (doc === undefined) {
    return fail("simple_function_checker:missing_doc", `No function doc for ${pyStrRepr(expected.name)}.`);
  }
  const name = options.dotsAsUnderscores ? doc.name.replaceAll(".", "_") : doc.name;
  if (call.name !== name) {
    return fail(
      "simple_function_checker:wrong_func_name",
      `Function name ${pyStrRepr(name)} not found in model output.`,
    );
  }
  const verdict = checkCallArgs(call.args, expected.args, doc.parameters, "bfcl");
  if (!verdict.failure) return VALID;
  const { errorType, verdict: failed } = verdict.failure;
  return lazyFail(CALL_LEVEL.has(errorType) ? `simple_function_checker:${errorType}` : errorType, () => [failed.error]);
}

/** BFCL's parallel_function_checker_no_order: greedy, expected calls in order, each takes the first match. */
function checkParallel(
  functions: readonly BfclFunctionDoc[],
  calls: readonly DecodedCall[],
  expected: readonly ExpectedCall[],
  options: CheckOptions,
): BfclVerdict {
  if (calls.length !== expected.length) {
    return fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.");
  }
  const matched = new Set<number>();
  for (const [i, want] of expected.entries()) {
    const doc = findDoc(functions, want.name);
    const subErrors: [number, BfclVerdict & { valid: false }][] = [];
    let found = false;
    for (const [index, call] of calls.entries()) {
      if (matched.has(index)) continue;
      const verdict = checkCall(doc, call, want, options);
      if (verdict.valid) {
        matched.add(index);
        found = true;
        break;
      }
      subErrors.push([index, verdict]);
    }
    if (!found) {
      const considered = calls.map((_, index) => index).filter((index) => !matched.has(index));
      return lazyFail("parallel_function_checker_no_order:cannot_find_match", () => [
        `Could not find a matching function among index [${considered.join(", ")}] of model output for index ${i} of possible answers.`,
        ...subErrors.map(([index, v]) => `Model Result Index ${index}: ${v.errorType}: ${v.error.join(" ")}`),
      ]);
    }
  }
  return VALID;
}
