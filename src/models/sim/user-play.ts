/**
 * The `user` stage: the simulator playing a conversation's user (`--user-model sim:…`). It answers from
 * the prompt alone, as any model must — never from the gold it was given: the script's answer for the
 * turn it is on (PROTOCOL.userAnswer), else the prompt's words for a question the script has no answer to
 * (PROTOCOL.userNoAnswer). The prompt is written by src/bench/conversation/model-user.ts; this reads it
 * with its own code.
 *
 * Two mistakes a weak user model makes, drawn at the profile's `userPlay` rates (one uniform draw, bands
 * in a fixed order, 0 where the mistake cannot happen):
 * - partial_answer: gives only part of an answer that holds several values (`acme/api` → `api`);
 * - repeated_request: says the turn's request again instead of answering.
 */

import { PROTOCOL } from "../protocol.ts";
import type { SimProfile } from "./catalog.ts";
import { drawBand } from "./decide.ts";
import type { DrawStreams } from "./random.ts";

export const USER_PLAY_MISTAKES = ["partial_answer", "repeated_request"] as const;

export type UserPlayMistake = (typeof USER_PLAY_MISTAKES)[number];

/** What the user-play prompt says about the turn the agent asked on. */
export interface UserScript {
  /** The user's words on that turn. */
  request?: string;
  /** The script's answer to a question on that turn; absent: it has none. */
  answer?: string;
  /** What to say when the script has no answer. */
  noAnswer?: string;
}

export interface UserPlayDecision {
  rates: Record<UserPlayMistake, number>;
  mistake?: UserPlayMistake;
}

/** A user-play prompt no script can be read from: a user who does not follow. */
export const USER_LOST = "Sorry, I'm not sure what you mean.";

/** Reads the script lines of a user-play prompt (the agent's question after them is not read). */
export function readUserScript(prompt: string): UserScript {
  const turns: { request: string; answer?: string }[] = [];
  let current: number | undefined;
  let noAnswer: string | undefined;
  for (const line of prompt.split("\n")) {
    if (current === undefined) {
      const says = `${PROTOCOL.userTurn(turns.length + 1)} `;
      const answer = `${PROTOCOL.userAnswer} `;
      const last = turns.at(-1);
      if (line.startsWith(says)) turns.push({ request: line.slice(says.length) });
      else if (last && line.trimStart().startsWith(answer)) last.answer = line.trimStart().slice(answer.length);
      else {
        const on = turns.findIndex((_, index) => line.startsWith(PROTOCOL.userOnTurn(index + 1)));
        if (on >= 0) current = on;
      }
    } else if (line.startsWith(`${PROTOCOL.userNoAnswer} `)) {
      noAnswer = line.slice(PROTOCOL.userNoAnswer.length + 1);
      break;
    }
  }
  const turn = current === undefined ? undefined : turns[current];
  return {
    ...(turn ? { request: turn.request } : {}),
    ...(turn?.answer !== undefined ? { answer: turn.answer } : {}),
    ...(noAnswer !== undefined ? { noAnswer } : {}),
  };
}

export function decideUserPlay(profile: SimProfile, script: UserScript, streams: DrawStreams): UserPlayDecision {
  const rates: Record<UserPlayMistake, number> = {
    partial_answer:
      script.answer !== undefined && partOf(script.answer) !== undefined ? profile.userPlay.partial_answer : 0,
    repeated_request: script.request !== undefined ? profile.userPlay.repeated_request : 0,
  };
  const mistake = drawBand(USER_PLAY_MISTAKES, rates, streams.stream("decide:user"));
  return { rates, ...(mistake ? { mistake } : {}) };
}

export function writeUserReply(script: UserScript, mistake: UserPlayMistake | undefined): string {
  if (mistake === "repeated_request" && script.request !== undefined) return script.request;
  if (mistake === "partial_answer" && script.answer !== undefined) return partOf(script.answer) ?? script.answer;
  return script.answer ?? script.noAnswer ?? USER_LOST;
}

/**
 * One value of an answer that gives several: the name of an `owner/name` pair (the owner left out), else
 * the first of a list (`a, b and c` → `a`); undefined for an answer of one value.
 */
function partOf(answer: string): string | undefined {
  const pair = /([\w.-]+)\/([\w.-]+)/.exec(answer);
  if (pair) return answer.replace(pair[0], pair[2] as string);
  const parts = answer.split(/\s*,\s*|\s+and\s+/).filter(Boolean);
  return parts.length > 1 ? parts[0] : undefined;
}
