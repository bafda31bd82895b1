/**
 * Effective mistake rates of one request: a pure function of the profile and what the prompt shows.
 * base × tools factor × skill factor × fix factor, zero where the mistake cannot happen (no owner/repo
 * to merge, no other tool to confuse), and within a level scaled to sum to at most maxLevelTotal.
 * The calibration tests read these numbers; the provider draws its mistakes from them.
 */

import type { ModelStage } from "../types.ts";
import { type SimCatalogue, type SimProfile, simCatalogue } from "./catalog.ts";
import {
  CALL_ERROR_TYPES,
  type CallErrorType,
  REQUEST_ERROR_TYPES,
  type RequestErrorType,
  type SimErrorType,
} from "./error-types.ts";
import type { GoldCall } from "./gold.ts";
import type { SimReading } from "./reading.ts";
import type { SimTurn } from "./turn.ts";

export interface CallFeatures {
  args: number;
  /** Arguments whose value is a string, number or boolean (a value that can be wrong). */
  scalarArgs: number;
  ownerRepo: boolean;
  /** The prompt shows a tool other than this call's. */
  otherToolShown: boolean;
}

/** Everything the rates depend on. */
export interface SimFeatures {
  protocol: ModelStage;
  turn: SimTurn["kind"];
  /** A dataset item was found in the prompt (no item: no mistakes). */
  hasItem: boolean;
  /** The item's gold answer uses tools. */
  needsTool: boolean;
  toolsShown: number;
  /** The prompt carries the skill rules of the item's own API. */
  skillRules: boolean;
  /** The prompt carries an earlier failure to fix. */
  errorToFix: boolean;
  /** One per tool call the oracle writes in this answer. */
  calls: CallFeatures[];
  /** 1-based turn of a conversation (1 for a single-turn item). */
  turnIndex: number;
  /** Characters of the earlier turns the request shows (reading.ts `historyChars`). */
  historyChars: number;
}

export interface SimRates {
  request: Record<RequestErrorType, number>;
  calls: Record<CallErrorType, number>[];
}

export function simFeatures(reading: SimReading, turn: SimTurn, catalogue: SimCatalogue = simCatalogue()): SimFeatures {
  const servers = new Set(reading.item?.servers ?? []);
  const shown = reading.tools.map((tool) => tool.name);
  return {
    protocol: reading.protocol,
    turn: turn.kind,
    hasItem: reading.item !== undefined,
    needsTool: (reading.item?.calls.length ?? 0) > 0,
    toolsShown: shown.length,
    skillRules: reading.skillTitles.some((title) => (catalogue.skillServers[title] ?? []).some((s) => servers.has(s))),
    errorToFix: reading.transcript.errorToFix,
    calls: turn.kind === "calls" ? turn.calls.map((call) => callFeatures(call, shown)) : [],
    turnIndex: reading.item?.turnIndex ?? 1,
    historyChars: reading.historyChars,
  };
}

function callFeatures(call: GoldCall, shown: readonly string[]): CallFeatures {
  const values = Object.values(call.args);
  return {
    args: values.length,
    scalarArgs: values.filter((value) => ["string", "number", "boolean"].includes(typeof value)).length,
    ownerRepo: typeof call.args.owner === "string" && typeof call.args.repo === "string",
    otherToolShown: shown.some((name) => name !== call.tool),
  };
}

export function effectiveRates(
  profile: SimProfile,
  features: SimFeatures,
  catalogue: SimCatalogue = simCatalogue(),
): SimRates {
  const rate = (type: SimErrorType, applies: boolean): number =>
    applies && features.hasItem ? profile.rates[type] * factor(type, features, catalogue) : 0;
  const request = capLevel(
    catalogue.maxLevelTotal,
    Object.fromEntries(REQUEST_ERROR_TYPES.map((type) => [type, rate(type, requestApplies(type, features))])) as Record<
      RequestErrorType,
      number
    >,
  );
  const calls = features.calls.map((call) =>
    capLevel(
      catalogue.maxLevelTotal,
      Object.fromEntries(
        CALL_ERROR_TYPES.map((type) => [type, rate(type, callApplies(type, call, features.protocol))]),
      ) as Record<CallErrorType, number>,
    ),
  );
  return { request, calls };
}

function requestApplies(type: RequestErrorType, features: SimFeatures): boolean {
  switch (type) {
    case "tool_call_on_direct":
      return (
        !features.needsTool &&
        (features.turn === "route" ||
          (features.turn === "final" && features.protocol !== "solver" && features.toolsShown > 0))
      );
    case "direct_answer_when_tool_needed":
      return features.turn === "calls" || (features.turn === "route" && features.needsTool);
    case "prose_around_call":
    case "malformed_syntax":
      return true;
    case "duplicate_steps":
      return features.turn === "calls";
  }
}

function callApplies(type: CallErrorType, call: CallFeatures, protocol: ModelStage): boolean {
  // a selector answer is names only: a name can be another shown tool's or made up, nothing else
  if (protocol === "select") return type === "wrong_tool" ? call.otherToolShown : type === "hallucinated_tool";
  switch (type) {
    case "wrong_tool":
      return call.otherToolShown;
    case "hallucinated_tool":
      return true;
    case "missing_required_param":
    case "wrong_param_name":
      return call.args > 0;
    case "merged_owner_repo":
      return call.ownerRepo;
    case "wrong_value":
      return call.scalarArgs > 0;
    case "positional_args":
      // Native tool calls carry an arguments object: there is no positional form.
      return call.args > 0 && protocol !== "native";
  }
}

/** The tools, skill and fix factors of one mistake type for these features. */
export function factor(type: SimErrorType, features: SimFeatures, catalogue: SimCatalogue = simCatalogue()): number {
  const spec = catalogue.errorTypes[type];
  const [low, high] = catalogue.toolsFactorBounds;
  const tools =
    features.toolsShown > 0
      ? Math.min(high, Math.max(low, 1 + spec.toolsSlope * Math.log2(features.toolsShown / catalogue.referenceTools)))
      : 1;
  return (
    tools *
    (features.skillRules ? spec.skillFactor : 1) *
    (features.errorToFix ? spec.fixFactor : 1) *
    conversationFactor(features, catalogue)
  );
}

/** Later turns and longer histories fail more (profiles.json `conversation`); 1 for a single-turn item. */
export function conversationFactor(
  features: Pick<SimFeatures, "turnIndex" | "historyChars">,
  catalogue: SimCatalogue = simCatalogue(),
): number {
  const { perTurn, perThousandHistoryChars, maxFactor } = catalogue.conversation;
  const rise = perTurn * (features.turnIndex - 1) + (perThousandHistoryChars * features.historyChars) / 1000;
  return Math.min(maxFactor, 1 + rise);
}

function capLevel<K extends string>(max: number, rates: Record<K, number>): Record<K, number> {
  const total = Object.values<number>(rates).reduce((sum, value) => sum + value, 0);
  if (total <= max) return rates;
  return Object.fromEntries(
    Object.entries<number>(rates).map(([type, value]) => [type, (value * max) / total]),
  ) as Record<K, number>;
}

/**
 * Constrained decoding (a JSON Schema the server turns into a grammar): the syntax mistakes cannot be
 * written — prose around the call, malformed JSON, and a second object (one per answer). Nothing else
 * changes: what a grammar does to a real model's choices is not known here, so it is not simulated.
 */
export function constrainedRates(rates: SimRates): SimRates {
  return { ...rates, request: { ...rates.request, prose_around_call: 0, malformed_syntax: 0, duplicate_steps: 0 } };
}
