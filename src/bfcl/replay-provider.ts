/**
 * `bfcl-replay`: a ModelProvider that answers the PLANNER stage with the output a real model recorded
 * for that question under BFCL, so real outputs go through the project's own plan parser,
 * normalisation, coercion and rescue. The question is found by its text in the prompt (`Task: …`);
 * questions asked twice with different function sets (simple_4 and multiple_96) are told apart by
 * which of their functions the prompt lists. Other stages get a short neutral text: nothing was
 * recorded for them. A prompt with no recording is a BfclReplayMissError, never a guess.
 */
import { basename } from "node:path";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelUsage,
} from "../models/types.ts";
import { toJson } from "../python/value.ts";
import type { RecordedResult } from "./data.ts";
import { BfclInputError, BfclReplayMissError } from "./errors.ts";
import { bfclQuestionToItem } from "./import.ts";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import { type CategoryInput, loadCategoryInputs } from "./score-dir.ts";

export interface BfclRecording {
  /** The BFCL question id, e.g. `simple_4`. */
  readonly id: string;
  readonly query: string;
  /** The question's function names. */
  readonly tools: readonly string[];
  /** What the model wrote, verbatim. */
  readonly output: string;
  readonly usage?: ModelUsage;
  /** The recorded latency of the real call. */
  readonly latencyMs?: number;
}

/** What stages other than the planner get. */
export const NEUTRAL_TEXT = "Done.";

const NO_USAGE: ModelUsage = { promptTokens: 0, completionTokens: 0 };
const TASK_MARK = "Task: ";

export class BfclReplayProvider implements ModelProvider {
  readonly id: string;
  private readonly byQuery = new Map<string, BfclRecording[]>();

  constructor(recordings: readonly BfclRecording[], model: string) {
    this.id = `bfcl-replay:${model}`;
    for (const recording of recordings) {
      const same = this.byQuery.get(recording.query);
      if (same) same.push(recording);
      else this.byQuery.set(recording.query, [recording]);
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    if (request.stage !== "planner") return { text: NEUTRAL_TEXT, usage: NO_USAGE, timings: { totalMs: 0 } };
    const recording = this.recordingFor(request.prompt);
    return {
      text: recording.output,
      usage: recording.usage ?? NO_USAGE,
      timings: { totalMs: recording.latencyMs ?? 0 },
    };
  }

  async chat(_request: ChatRequest): Promise<ChatResponse> {
    return { text: NEUTRAL_TEXT, toolCalls: [], usage: NO_USAGE, timings: { totalMs: 0 } };
  }

  /** The recording whose question the prompt asks. */
  recordingFor(prompt: string): BfclRecording {
    const candidates = this.byQuery.get(taskText(prompt)) ?? this.scanForQuery(prompt);
    if (!candidates) {
      throw new BfclReplayMissError("BFCL_REPLAY_MISS", `${this.id}: no recorded question appears in the prompt`, {
        context: { promptStart: prompt.slice(0, 200) },
      });
    }
    return candidates.length === 1 ? candidates[0]! : pickByTools(candidates, prompt, this.id);
  }

  /** Slow path, for a query that itself contains "Task: ": the longest query that follows a `Task: `. */
  private scanForQuery(prompt: string): BfclRecording[] | undefined {
    let best: string | undefined;
    for (const query of this.byQuery.keys()) {
      if ((best === undefined || query.length > best.length) && prompt.includes(`${TASK_MARK}${query}\n`)) best = query;
    }
    return best === undefined ? undefined : this.byQuery.get(best);
  }
}

/** The planner prompt ends `Task: <query>\n#E1 =`: the text between the last mark and the last line. */
function taskText(prompt: string): string {
  const start = prompt.lastIndexOf(TASK_MARK);
  const end = prompt.lastIndexOf("\n");
  return start < 0 || end <= start ? "" : prompt.slice(start + TASK_MARK.length, end);
}

/**
 * Same question text, several recordings: the one whose function set best matches the functions the
 * prompt lists (a line starting `name(`), by Jaccard similarity. A tie between different outputs is a miss.
 */
function pickByTools(candidates: readonly BfclRecording[], prompt: string, provider: string): BfclRecording {
  const listed = new Set(
    candidates.flatMap((c) => c.tools).filter((name) => prompt.includes(`\n${name}(`) || prompt.startsWith(`${name}(`)),
  );
  const scored = candidates.map((c) => {
    const shared = c.tools.filter((name) => listed.has(name)).length;
    return { c, score: shared / (c.tools.length + listed.size - shared || 1) };
  });
  const top = Math.max(...scored.map((s) => s.score));
  const best = scored.filter((s) => s.score === top).map((s) => s.c);
  if (best.some((c) => c.output !== best[0]!.output)) {
    throw new BfclReplayMissError(
      "BFCL_REPLAY_AMBIGUOUS",
      `${provider}: the prompt fits several recorded questions equally well: ${best.map((c) => c.id).join(", ")}`,
      { context: { ids: best.map((c) => c.id) } },
    );
  }
  return best[0]!;
}

/** The recorded output as the model wrote it (a function-calling value as JSON text). */
export function outputText(result: RecordedResult): string {
  return typeof result.result === "string" ? result.result : JSON.stringify(toJson(result.result));
}

/** One category's recorded results as recordings, with each question's text and function names. */
export function recordingsOf(input: CategoryInput): BfclRecording[] {
  return input.results.map((result) => {
    const question = input.questions.get(result.id);
    if (!question) {
      throw new BfclInputError(
        "BFCL_UNKNOWN_ID",
        `${input.resultFile}:${result.line}: ${result.id}: no question with this id`,
        { context: { file: input.resultFile, line: result.line, id: result.id } },
      );
    }
    return {
      id: result.id,
      query: bfclQuestionToItem(input.category, question).query,
      tools: question.function.map((f) => f.name),
      output: outputText(result),
      usage: { promptTokens: result.inputTokens ?? 0, completionTokens: result.outputTokens ?? 0 },
      ...(result.latencySeconds === undefined ? {} : { latencyMs: result.latencySeconds * 1000 }),
    };
  });
}

/**
 * A replay provider for a model's result folder (BFCL_v3_<cat>_result.json files), named after the
 * folder: what `--model bfcl-replay:<result-dir>` needs.
 */
export function bfclReplayProvider(resultDir: string, options: { dataDir?: string } = {}): BfclReplayProvider {
  const inputs = loadCategoryInputs(resultDir, { dataDir: options.dataDir ?? DEFAULT_BFCL_DATA_DIR });
  return new BfclReplayProvider(inputs.flatMap(recordingsOf), basename(resultDir));
}
