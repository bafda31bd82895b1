/**
 * Router: rules first — meta/help → DIRECT; no relevant tool → DIRECT; exploratory words → REACT;
 * sequence words → REWOO; otherwise REWOO. When tools are connected and the rules found none relevant,
 * one short model call decides ACTION vs DIRECT (a meta/help question is never sent to it).
 */

import type { ToolDefinition } from "../mcp/types.ts";
import { rankTools } from "./filter.ts";
import type { Route, RouteDecision } from "./types.ts";

/** A tool scoring at least one name hit (or two description words) makes a query tool-relevant. */
export const RELEVANCE_MIN = 3;

const META =
  /^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s!.,]*$|\b(what can you do|what are you|who are you|what tools (do you have|are available|can you use)|how do (i|you) use you|help me understand what you can do)\b|^\s*help\s*[?!.]*\s*$/i;
const EXPLORATORY = /\b(search|find|explore|look up|lookup|look for|research|investigate|browse|discover|dig into)\b/i;
const SEQUENCE = /\b(then|after|afterwards|first|next|finally|followed by|once)\b/i;

export function routeByRules(query: string, tools: readonly ToolDefinition[]): RouteDecision {
  const relevance = tools.length > 0 ? (rankTools(query, tools)[0]?.score ?? 0) : 0;
  const decide = (route: Route, rule: string): RouteDecision => ({ route, rule, relevance, llmAsked: false });
  if (META.test(query)) return decide("DIRECT", "meta");
  if (tools.length === 0) return decide("DIRECT", "no-tools");
  if (relevance < RELEVANCE_MIN) return decide("DIRECT", "no-relevance");
  return actionRoute(query, decide);
}

function actionRoute(query: string, decide: (route: Route, rule: string) => RouteDecision): RouteDecision {
  if (EXPLORATORY.test(query)) return decide("REACT", "exploratory");
  if (SEQUENCE.test(query)) return decide("REWOO", "sequence");
  return decide("REWOO", "default");
}

/** The rules' DIRECT is worth a second opinion only when tools exist and the query was not meta/help. */
export function needsRoutingLlm(decision: RouteDecision): boolean {
  return decision.route === "DIRECT" && decision.rule === "no-relevance";
}

export function buildRouterPrompt(query: string, tools: readonly ToolDefinition[]): string {
  const names = rankTools(query, tools)
    .slice(0, 10)
    .map((entry) => entry.name);
  return [
    "Decide whether a request needs a tool.",
    `Available tools: ${names.join(", ")}`,
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
): RouteDecision {
  const asked = { ...decision, llmAsked: true, llmAnswer: answer };
  if (answer !== "ACTION") return { ...asked, rule: "llm" };
  return actionRoute(query, (route) => ({ ...asked, route, rule: "llm" }));
}
