/**
 * Router: rules first — meta/help → DIRECT; no relevant tool → DIRECT; exploratory words → REACT;
 * sequence words → REWOO; otherwise REWOO. When tools are connected and the rules found none relevant,
 * one short model call decides ACTION vs DIRECT (a meta/help question is never sent to it).
 *
 * `router: onsetlab` uses the doc-era OnsetLab rules instead: its meta patterns (`help` anywhere in the
 * message), sequence words checked before exploratory ones (a query with both is REWOO), the intent
 * check also for a meta DIRECT, and a model ACTION (or a failed check) always → REWOO.
 */

import type { ToolDefinition } from "../mcp/types.ts";
import { rankTools } from "./filter.ts";
import { HISTORY_HEADING } from "./history.ts";
import type { Route, RouteDecision, RouterRules } from "./types.ts";

/** A tool scoring at least one name hit (or two description words) makes a query tool-relevant. */
export const RELEVANCE_MIN = 3;

const META =
  /^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s!.,]*$|\b(what can you do|what are you|who are you|what tools (do you have|are available|can you use)|how do (i|you) use you|help me understand what you can do)\b|^\s*help\s*[?!.]*\s*$/i;
const EXPLORATORY = /\b(search|find|explore|look up|lookup|look for|research|investigate|browse|discover|dig into)\b/i;
const SEQUENCE = /\b(then|after|afterwards|first|next|finally|followed by|once)\b/i;

/** OnsetLab's meta patterns: questions about the assistant itself, and `help` anywhere. */
const ONSETLAB_META =
  /\b(what tools|list\b.*\b(tools|capabilities)|what can you do|help|how do (you|i) use|what are your)\b/i;
/** OnsetLab's words: exploratory ones ("find" unless about a file), and sequence ones (checked first). */
const ONSETLAB_EXPLORATORY =
  /\b(search|look for|explore|browse|discover)\b|\bfind\b(?!.*\bfiles?\b)|\bwhat\b.*\b(available|exists?)\b/i;
const ONSETLAB_SEQUENCE = /\b(then|after that|next|finally)\b|\bfirst\b.*\bthen\b|\band\b.*\band\b/i;

export function routeByRules(
  query: string,
  tools: readonly ToolDefinition[],
  rules: RouterRules = "plus",
): RouteDecision {
  const relevance = tools.length > 0 ? (rankTools(query, tools)[0]?.score ?? 0) : 0;
  const decide = (route: Route, rule: string): RouteDecision => ({ route, rule, relevance, llmAsked: false });
  if ((rules === "onsetlab" ? ONSETLAB_META : META).test(query)) return decide("DIRECT", "meta");
  if (tools.length === 0) return decide("DIRECT", "no-tools");
  if (relevance < RELEVANCE_MIN) return decide("DIRECT", "no-relevance");
  return rules === "onsetlab" ? onsetlabActionRoute(query, decide) : actionRoute(query, decide);
}

function actionRoute(query: string, decide: (route: Route, rule: string) => RouteDecision): RouteDecision {
  if (EXPLORATORY.test(query)) return decide("REACT", "exploratory");
  if (SEQUENCE.test(query)) return decide("REWOO", "sequence");
  return decide("REWOO", "default");
}

function onsetlabActionRoute(query: string, decide: (route: Route, rule: string) => RouteDecision): RouteDecision {
  if (ONSETLAB_SEQUENCE.test(query)) return decide("REWOO", "sequence");
  if (ONSETLAB_EXPLORATORY.test(query)) return decide("REACT", "exploratory");
  return decide("REWOO", "default");
}

/**
 * The rules' DIRECT gets a second opinion when tools are connected: in this project only when no tool
 * was relevant; in OnsetLab also for a meta/help DIRECT when server (MCP) tools are connected.
 */
export function needsRoutingLlm(decision: RouteDecision, rules: RouterRules = "plus", serverTools = 0): boolean {
  if (decision.route !== "DIRECT") return false;
  return decision.rule === "no-relevance" || (rules === "onsetlab" && decision.rule === "meta" && serverTools > 0);
}

/** `history`: the conversation's earlier turns (OnsetLab's intent check showed them before the request). */
export function buildRouterPrompt(query: string, tools: readonly ToolDefinition[], history?: string): string {
  const names = rankTools(query, tools)
    .slice(0, 10)
    .map((entry) => entry.name);
  return [
    "Decide whether a request needs a tool.",
    `Available tools: ${names.join(", ")}`,
    ...(history ? [`${HISTORY_HEADING}\n${history}`] : []),
    `Request: ${query}`,
    "Reply ACTION if answering needs one of the tools, or DIRECT if you can answer without them. Reply with one word.",
    "Answer:",
  ].join("\n");
}

export function parseRouterAnswer(text: string): "ACTION" | "DIRECT" | "unclear" {
  const match = /\b(ACTION|DIRECT)\b/i.exec(text);
  return match ? (match[1]?.toUpperCase() as "ACTION" | "DIRECT") : "unclear";
}

/** Applies the model's answer: ACTION re-enters the rules after the relevance check; DIRECT/unclear stay DIRECT. */
export function applyRouterAnswer(
  query: string,
  decision: RouteDecision,
  answer: "ACTION" | "DIRECT" | "unclear",
  rules: RouterRules = "plus",
): RouteDecision {
  const asked = { ...decision, llmAsked: true, llmAnswer: answer };
  if (answer !== "ACTION") return { ...asked, rule: "llm" };
  if (rules === "onsetlab") return { ...asked, route: "REWOO", rule: "llm" };
  return actionRoute(query, (route) => ({ ...asked, route, rule: "llm" }));
}
