/**
 * The simulator's core, pure: a request → what fits its context window → its reading, the oracle's move, the effective mistake rates,
 * the drawn mistakes, and the answer text / tool calls. The provider wraps it; calibration calls
 * `analyse` on recorded requests to get the same rates and decisions the run used.
 */

import { fitToWindow } from "../prompt-size.ts";
import { promptRenderer } from "../prompt-text.ts";
import type { ModelStage, NativeToolCall } from "../types.ts";
import { buildAction } from "./action.ts";
import { type SimProfile, simProfile } from "./catalog.ts";
import { decideMistakes, type SimDecision } from "./decide.ts";
import type { RequestErrorType } from "./error-types.ts";
import { GoldIndex, type SimGoldItem } from "./gold.ts";
import { DrawStreams } from "./random.ts";
import { constrainedRates, effectiveRates, type SimFeatures, type SimRates, simFeatures } from "./rates.ts";
import { readRequest, type SimReading, type SimRequest } from "./reading.ts";
import { renderJsonl, renderNative } from "./render-chat.ts";
import {
  type Formatting,
  renderPlan,
  renderReact,
  renderRouter,
  renderSelection,
  renderSolver,
} from "./render-completion.ts";
import { conformingText } from "./schema-instance.ts";
import { nativeCallIds, requestSeed } from "./seed.ts";
import { planTurn, type SimTurn } from "./turn.ts";
import { decideUserPlay, type UserPlayDecision, writeUserReply } from "./user-play.ts";

export interface SimOptions {
  /** `slm-3b` or `sim:slm-3b`. */
  profile: string;
  seed?: number;
  gold: readonly SimGoldItem[];
}

export interface SimAnalysis {
  protocol: ModelStage;
  /** The dataset item found in the prompt. */
  itemId?: string;
  turn: SimTurn["kind"];
  features: SimFeatures;
  rates: SimRates;
  decision: SimDecision;
  /** The user stage's mistake, drawn at the profile's `userPlay` rates (user-play.ts). */
  userPlay?: UserPlayDecision;
}

export interface SimAnswer {
  analysis: SimAnalysis;
  text: string;
  toolCalls: NativeToolCall[];
}

export class SimEngine {
  readonly profile: SimProfile;
  readonly seed: number;
  private readonly gold: GoldIndex;

  constructor(options: SimOptions) {
    this.profile = simProfile(options.profile);
    this.seed = options.seed ?? 0;
    this.gold = new GoldIndex(options.gold);
  }

  /** The rates and mistakes of a request, without writing the answer. */
  analyse(request: SimRequest): SimAnalysis {
    return this.study(request).analysis;
  }

  respond(request: SimRequest): SimAnswer {
    const { reading, turn, streams, analysis } = this.study(request);
    const built = buildAction(reading, turn, analysis.decision, streams.stream("detail:calls"));
    const format = request.kind === "chat" ? request.format : undefined;
    // a grammar lets one protocol object through per answer: the first call now, the next one next turn
    const action = format && built.kind === "calls" ? { ...built, calls: built.calls.slice(0, 1) } : built;
    const mistake = analysis.decision.request;
    const formatting = isFormatting(mistake) ? mistake : undefined;
    const detail = streams.stream("detail:format");
    const text = (value: string) => ({ analysis, text: value, toolCalls: [] });
    switch (reading.protocol) {
      case "router":
        return text(renderRouter(action, formatting, detail));
      case "select":
        return text(renderSelection(action, formatting, detail));
      case "planner":
        return text(renderPlan(action, formatting, detail));
      case "react":
      case "fallback":
        return text(renderReact(action, formatting, detail));
      case "solver":
        return text(renderSolver(action, formatting));
      case "jsonl": {
        const written = renderJsonl(action, formatting, detail);
        return text(format ? conformingText(written, format, reading.item !== undefined) : written);
      }
      case "native":
        return { analysis, ...renderNative(action, formatting, detail, nativeCallIds(reading.text)) };
      case "user":
        return text(writeUserReply(reading.userScript ?? {}, analysis.userPlay?.mistake));
    }
  }

  private study(request: SimRequest): {
    reading: SimReading;
    turn: SimTurn;
    streams: DrawStreams;
    analysis: SimAnalysis;
  } {
    const reading = readRequest(fitToWindow(request, this.profile.contextWindow, promptRenderer).input, this.gold);
    const turn = planTurn(reading);
    const features = simFeatures(reading, turn);
    const free = effectiveRates(this.profile, features);
    const rates = request.kind === "chat" && request.format ? constrainedRates(free) : free;
    const streams = new DrawStreams(requestSeed(this.profile.name, this.seed, reading.protocol, reading.text));
    const decision = decideMistakes(rates, streams);
    const analysis: SimAnalysis = {
      protocol: reading.protocol,
      ...(reading.item ? { itemId: reading.item.id } : {}),
      turn: turn.kind,
      features,
      rates,
      decision,
      ...(reading.userScript ? { userPlay: decideUserPlay(this.profile, reading.userScript, streams) } : {}),
    };
    return { reading, turn, streams, analysis };
  }
}

/** Request-level mistakes that change only how the answer is written. */
function isFormatting(type: RequestErrorType | undefined): type is Formatting {
  return type === "prose_around_call" || type === "malformed_syntax" || type === "duplicate_steps";
}
