/**
 * Where the simulator's base rates come from: BFCL's own verdicts on two real 3B models
 * (../shared/bfcl/score), each failing entry attributed to one of the sim's error types. Only the
 * single-call categories (simple, multiple) are attributed: in the parallel ones BFCL reports
 * `cannot_find_match` / `wrong_count` for the whole set of calls, which does not say which mistake it was.
 */

import type { SimErrorType } from "./error-types.ts";

/** One failing line of a BFCL score file (the fields the attribution reads). */
export interface BfclScoreEntry {
  error_type: string;
  model_result_raw?: unknown;
  model_result_decoded?: unknown;
  prompt?: { function?: { name?: unknown; parameters?: { properties?: unknown } }[] };
}

/** A sim error type, or a second call to another function (BFCL `wrong_count` in `multiple`). */
export type BfclAttribution = SimErrorType | "extra_call";

/** The single-call categories whose failures can be attributed. */
export const ATTRIBUTED_CATEGORIES = ["simple", "multiple"] as const;

const CALL = /[A-Za-z_][\w.]*\s*\(/;
/** Markdown, fences or a "Question:"/"Function Call:" preamble around the calls. */
const PROSE = /\*\*|```|\bQuestion\b|Function Call|^\s*(?:Sure|Here)\b/i;

export function attributeBfclFailure(entry: BfclScoreEntry): BfclAttribution {
  const type = entry.error_type;
  const raw = typeof entry.model_result_raw === "string" ? entry.model_result_raw : "";
  if (type === "ast_decoder:decoder_failed") {
    if (!CALL.test(raw)) return "direct_answer_when_tool_needed";
    return PROSE.test(raw) ? "prose_around_call" : "malformed_syntax";
  }
  if (type === "simple_function_checker:wrong_func_name") {
    const offered = new Set(offeredFunctions(entry).map((fn) => fn.name));
    return decodedCalls(entry).some((call) => offered.has(call.name)) ? "wrong_tool" : "hallucinated_tool";
  }
  if (type === "simple_function_checker:missing_required") {
    if (/\(\s*["'\d[{-]/.test(raw)) return "positional_args";
    return hasUnknownParam(entry) ? "wrong_param_name" : "missing_required_param";
  }
  // An expected parameter left out: the same mistake as a required one left out.
  if (type === "simple_function_checker:missing_optional") return "missing_required_param";
  if (type === "simple_function_checker:unexpected_param") return "wrong_param_name";
  if (type === "multiple_function_checker:wrong_count") {
    const names = decodedCalls(entry).map((call) => call.name);
    if (names.length === 0) return "direct_answer_when_tool_needed";
    return new Set(names).size < names.length ? "duplicate_steps" : "extra_call";
  }
  if (type.startsWith("value_error:") || type.startsWith("type_error:")) return "wrong_value";
  throw new Error(`no attribution for BFCL error type ${type}`);
}

function offeredFunctions(entry: BfclScoreEntry): { name: string; params: string[] }[] {
  return (entry.prompt?.function ?? []).map((fn) => ({
    name: String(fn.name),
    params: Object.keys((fn.parameters?.properties as Record<string, unknown> | undefined) ?? {}),
  }));
}

function decodedCalls(entry: BfclScoreEntry): { name: string; args: string[] }[] {
  const decoded = Array.isArray(entry.model_result_decoded) ? entry.model_result_decoded : [];
  return decoded.flatMap((call) =>
    call !== null && typeof call === "object"
      ? Object.entries(call as Record<string, unknown>).map(([name, args]) => ({
          name,
          args: args !== null && typeof args === "object" ? Object.keys(args) : [],
        }))
      : [],
  );
}

/** A parameter the function does not declare: the model renamed one (`initial_e` for `initial_velocity`). */
function hasUnknownParam(entry: BfclScoreEntry): boolean {
  const functions = offeredFunctions(entry);
  return decodedCalls(entry).some((call) => {
    const declared = functions.find((fn) => fn.name === call.name)?.params ?? [];
    return call.args.some((arg) => !declared.includes(arg));
  });
}

/** One model's attributed failures over the attributed categories. */
export interface BfclModelTally {
  model: string;
  /** Entries scored (passing and failing). */
  entries: number;
  counts: Partial<Record<BfclAttribution, number>>;
}

export function tallyBfclFailures(model: string, entries: number, failures: readonly BfclScoreEntry[]): BfclModelTally {
  const counts: Partial<Record<BfclAttribution, number>> = {};
  for (const failure of failures) {
    const attribution = attributeBfclFailure(failure);
    counts[attribution] = (counts[attribution] ?? 0) + 1;
  }
  return { model, entries, counts };
}

/** Per attribution, the share of entries averaged over the models (each model weighs the same). */
export function meanShares(tallies: readonly BfclModelTally[]): Partial<Record<BfclAttribution, number>> {
  const shares: Partial<Record<BfclAttribution, number>> = {};
  for (const tally of tallies) {
    for (const [attribution, count] of Object.entries(tally.counts) as [BfclAttribution, number][]) {
      shares[attribution] = (shares[attribution] ?? 0) + count / tally.entries / tallies.length;
    }
  }
  return shares;
}

/** The markdown table the sim's README carries (a test checks it against the score files). */
export function renderBfclShareTable(tallies: readonly BfclModelTally[], order: readonly BfclAttribution[]): string {
  const mean = meanShares(tallies);
  const header = [
    `| attributed to | ${tallies.map((t) => `${t.model} (n=${t.entries})`).join(" | ")} | mean share |`,
    `|---|${tallies.map(() => "---:").join("|")}|---:|`,
  ];
  const rows = order.map((attribution) => {
    const cells = tallies.map((tally) => {
      const count = tally.counts[attribution] ?? 0;
      return `${count} (${percent(count / tally.entries)})`;
    });
    return `| ${attribution} | ${cells.join(" | ")} | ${percent(mean[attribution] ?? 0)} |`;
  });
  return [...header, ...rows].join("\n");
}

function percent(share: number): string {
  return `${(share * 100).toFixed(2)}%`;
}
