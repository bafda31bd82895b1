/**
 * Picks the skill whose rules go into the prompt. The active tool names vote first (how many of them
 * belong to each API); when several APIs have tools, or none has, the query's words decide.
 */

import type { ToolDefinition } from "../../tool-protocol/types.ts";
import type { SkillChoice } from "../types.ts";
import { SKILLS, type Skill } from "./catalog.ts";

export interface DetectedSkill {
  skill: Skill;
  choice: SkillChoice;
}

/** How many of the tools belong to the skill's API (`date` marks `get_date`, not `update_issue`). */
export function toolScore(skill: Skill, tools: readonly ToolDefinition[]): number {
  return tools.filter((tool) => {
    const name = tool.name.toLowerCase();
    return skill.toolKeywords.some((fragment) => startsAWord(name, fragment));
  }).length;
}

function startsAWord(name: string, fragment: string): boolean {
  for (let at = name.indexOf(fragment); at >= 0; at = name.indexOf(fragment, at + 1)) {
    if (at === 0 || /[_.-]/.test(name[at - 1] ?? "")) return true;
  }
  return false;
}

export function queryScore(skill: Skill, query: string): number {
  return skill.queryKeywords.filter((pattern) => pattern.test(query)).length;
}

export function detectSkill(
  query: string,
  activeTools: readonly ToolDefinition[],
  skills: readonly Skill[] = SKILLS,
): DetectedSkill | null {
  const scored = skills.map((skill) => ({
    skill,
    tools: toolScore(skill, activeTools),
    query: queryScore(skill, query),
  }));
  const withTools = scored.filter((entry) => entry.tools > 0);
  if (withTools.length === 1) {
    const [only] = withTools as [(typeof scored)[number]];
    return { skill: only.skill, choice: { name: only.skill.name, score: only.tools, source: "tools" } };
  }
  // Several APIs among the active tools: the query decides between them, tool counts break ties.
  const pool = withTools.length > 1 ? withTools : scored;
  const best = [...pool].sort((a, b) => b.query - a.query || b.tools - a.tools)[0];
  if (!best || (best.query === 0 && best.tools === 0)) return null;
  const source = best.query > 0 ? "query" : "tools";
  return {
    skill: best.skill,
    choice: { name: best.skill.name, score: source === "query" ? best.query : best.tools, source },
  };
}

/** The rule block for a prompt. */
export function skillRulesText(skill: Skill): string {
  return [`${skill.title} rules:`, ...skill.rules.map((rule) => `- ${rule}`)].join("\n");
}
