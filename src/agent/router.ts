/**
 * Router: rules first — meta/help → DIRECT; no relevant tool → DIRECT; exploratory words → REACT;
 * sequence words → REWOO; otherwise REWOO. When tools are connected and the rules found none relevant,
 * one short model call decides ACTION vs DIRECT (a meta/help question is never sent to it).
 *
 * `router: onsetlab` uses the doc-era OnsetLab rules instead (router-onsetlab.ts): its meta patterns
 * (`help` anywhere in the message), exploratory only without sequence words, the intent check for every
 * DIRECT when server tools are connected, and a model ACTION (or a failed check) always → REWOO.
 * `relevance` picks the relevance test: OnsetLab's router match, or the filter's best score ≥ 3.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { rankTools } from "./filter.ts";
import {
  isExploratory,
  isMeta,
  isSequential,
  onsetlabMatches,
  onsetlabMatchScore,
  onsetlabTask,
} from "./router-onsetlab.ts";
import type { Relevance, Route, RouteDecision, RouterRules } from "./types.ts";

/** A tool scoring at least one name hit (or two description words) makes a query tool-relevant. */
export const RELEVANCE_MIN = 3;

const META =
  /^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s!.,]*$|\b(what can you do|what are you|who are you|what tools (do you have|are available|can you use)|how do (i|you) use you|help me understand what you can do)\b|^\s*help\s*[?!.]*\s*$/i;
const EXPLORATORY = /\b(search|find|explore|look up|lookup|look for|research|investigate|browse|discover|dig into)\b/i;
const SEQUENCE = /\b(then|after|afterwards|first|next|finally|followed by|once)\b/i;

/** The relevance test: the best score it saw, and whether a tool passed. */
function relevanceOf(query: string, tools: readonly ToolDefinition[], relevance: Relevance) {
  if (tools.length === 0) return { score: 0, relevant: false };
  if (relevance === "onsetlab") {
    const task = onsetlabTask(query);
    const score = Math.max(...tools.map((tool) => onsetlabMatchScore(task, tool)));
    return { score, relevant: onsetlabMatches(task, tools).length > 0 };
  }
  const score = rankTools(query, tools)[0]?.score ?? 0;
  return { score, relevant: score >= RELEVANCE_MIN };
}

export function routeByRules(
  query: string,
  tools: readonly ToolDefinition[],
  rules: RouterRules = "plus",
  relevance: Relevance = "plus",
): RouteDecision {
  const relevant = relevanceOf(query, tools, relevance);
  const decide = (route: Route, rule: string): RouteDecision => ({
    route,
    rule,
    relevance: relevant.score,
    llmAsked: false,
  });
  if (rules === "onsetlab" ? isMeta(onsetlabTask(query)) : META.test(query)) return decide("DIRECT", "meta");
  if (tools.length === 0) return decide("DIRECT", "no-tools");
  if (!relevant.relevant) return decide("DIRECT", "no-relevance");
  if (rules === "plus") return actionRoute(query, decide);
  // OnsetLab's rules past meta and relevance: exploratory wins only without sequence words.
  const task = onsetlabTask(query);
  if (isSequential(task)) return decide("REWOO", "sequence");
  return isExploratory(task) ? decide("REACT", "exploratory") : decide("REWOO", "default");
}

function actionRoute(query: string, decide: (route: Route, rule: string) => RouteDecision): RouteDecision {
  if (EXPLORATORY.test(query)) return decide("REACT", "exploratory");
  if (SEQUENCE.test(query)) return decide("REWOO", "sequence");
  return decide("REWOO", "default");
}

/**
 * The rules' DIRECT gets a second opinion when tools are connected: in this project only when no tool
 * was relevant; in OnsetLab for every DIRECT (meta questions included) when server (MCP) tools are
 * connected, and never with built-ins alone.
 */
export function needsRoutingLlm(decision: RouteDecision, rules: RouterRules = "plus", serverTools = 0): boolean {
  if (decision.route !== "DIRECT") return false;
  return rules === "onsetlab" ? serverTools > 0 : decision.rule === "no-relevance";
}

/** `history`: the conversation's earlier turns (OnsetLab's intent check showed them before the request). */
export function buildRouterPrompt(query: string, tools: readonly ToolDefinition[], history?: string): string {
  const names = rankTools(query, tools)
    .slice(0, 10)
    .map((entry) => entry.name);
  return [
    "Decide whether a request needs a tool.",
    `Available tools: ${names.join(", ")}`,
    ...(history ? [`${PROTOCOL.conversationSoFar}\n${history}`] : []),
    `Request: ${query}`,
    `Reply ${PROTOCOL.routeAction} if answering needs one of the tools, or ${PROTOCOL.routeDirect} if you can answer without them. Reply with one word.`,
    PROTOCOL.answer,
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
