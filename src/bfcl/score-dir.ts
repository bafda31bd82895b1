/**
 * Scores a folder of recorded BFCL results (`BFCL_v3_<cat>_result.json`) in BFCL mode and, where
 * BFCL's own score files are found, compares verdicts entry by entry.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { decodeOutput } from "../python/decode-output.ts";
import { loadCategory, requireDataDir } from "./catalog.ts";
import { type CheckOptions, checkEntry } from "./checker.ts";
import { loadResults, loadScoreFile, type RecordedResult, type ScoreFile } from "./data.ts";
import { BfclInputError } from "./errors.ts";
import type { MultiTurnCategory } from "./multi-turn/entries.ts";
import { isMultiTurnResultCategory, scoreMultiTurnFile } from "./multi-turn/score.ts";
import { DEFAULT_BFCL_V4_DATA_DIR, hasAnswers } from "./paths.ts";
import type { BfclQuestion, BfclVerdict, ExpectedCall } from "./types.ts";

/** Single-turn result files: v3's categories and v4's live ones (`BFCL_v4_live_simple_result.json`). */
const RESULT_FILE = /^BFCL_(v[34])_((?!multi_turn).+)_result\.json$/;
/** v4 result files this track scores: the multi-turn categories. */
const V4_RESULT_FILE = /^BFCL_v4_(multi_turn_[a-z_]+)_result\.json$/;

export interface EntryScore {
  readonly id: string;
  readonly verdict: BfclVerdict;
}

/** Everything one category needs to be scored, loaded. */
export interface CategoryInput {
  readonly category: string;
  readonly resultFile: string;
  readonly results: readonly RecordedResult[];
  readonly questions: ReadonlyMap<string, BfclQuestion>;
  readonly answers: ReadonlyMap<string, readonly ExpectedCall[]>;
  readonly score?: ScoreFile;
}

export interface Disagreement {
  readonly id: string;
  readonly output: string;
  readonly ours: BfclVerdict;
  readonly bfcl: BfclVerdict;
}

export interface Agreement {
  readonly bfclCorrect: number;
  readonly bfclTotal: number;
  readonly bfclAccuracy: number;
  readonly agree: number;
  readonly disagree: number;
  /** Of the entries both call failing, how many with the same error type. */
  readonly sameErrorType: number;
  readonly bothFailing: number;
  readonly disagreements: readonly Disagreement[];
}

export interface CategoryScore {
  readonly category: string;
  readonly total: number;
  readonly correct: number;
  readonly accuracy: number;
  readonly entries: readonly EntryScore[];
  readonly agreement?: Agreement;
  /** Multi-turn: calls made in turns whose ground truth is empty (no verdict of BFCL's counts them). */
  readonly callsInEmptyTurns?: number;
}

export interface ScoreDirOptions extends CheckOptions {
  readonly dataDir: string;
  /** Where BFCL's score files are; default: `score/<model>/` beside `result/<model>/`. */
  readonly scoresDir?: string;
  /** BFCL v4's data folder (multi-turn entries and ground truth). */
  readonly v4DataDir?: string;
}

/** Pure: scores loaded inputs. */
export function scoreCategory(input: CategoryInput, options: CheckOptions = {}): CategoryScore {
  const entries = input.results.map((r) => ({ id: r.id, verdict: scoreResult(input, r, options) }));
  const correct = entries.filter((e) => e.verdict.valid).length;
  const total = entries.length;
  const base = { category: input.category, total, correct, accuracy: total === 0 ? 0 : correct / total, entries };
  return input.score ? { ...base, agreement: compare(input, entries, input.score) } : base;
}

function scoreResult(input: CategoryInput, r: RecordedResult, options: CheckOptions): BfclVerdict {
  const question = input.questions.get(r.id);
  if (!question) throw unknownId(input.resultFile, r, "no question with this id in the data");
  const expected = input.answers.get(r.id);
  if (!expected && hasAnswers(input.category)) {
    throw unknownId(input.resultFile, r, "no possible answer with this id");
  }
  return checkEntry(input.category, question.function, decodeOutput(r.result), expected ?? [], options);
}

function unknownId(file: string, r: RecordedResult, what: string): BfclInputError {
  return new BfclInputError("BFCL_UNKNOWN_ID", `${file}:${r.line}: ${r.id}: ${what}`, {
    context: { file, line: r.line, id: r.id },
  });
}

function compare(input: CategoryInput, entries: readonly EntryScore[], score: ScoreFile): Agreement {
  const outputs = new Map(input.results.map((r) => [r.id, r.result]));
  let agree = 0;
  let sameErrorType = 0;
  let bothFailing = 0;
  const disagreements: Disagreement[] = [];
  for (const { id, verdict } of entries) {
    const bfcl: BfclVerdict = score.failures.get(id) ?? { valid: true };
    if (bfcl.valid === verdict.valid) {
      agree++;
      if (!bfcl.valid && !verdict.valid) {
        bothFailing++;
        if (bfcl.errorType === verdict.errorType) sameErrorType++;
      }
    } else {
      const raw = outputs.get(id);
      disagreements.push({ id, output: typeof raw === "string" ? raw : JSON.stringify(raw), ours: verdict, bfcl });
    }
  }
  return {
    bfclCorrect: score.correctCount,
    bfclTotal: score.totalCount,
    bfclAccuracy: score.accuracy,
    agree,
    disagree: disagreements.length,
    sameErrorType,
    bothFailing,
    disagreements,
  };
}

// ─── loading a folder ───────────────────────────────────────────────────────────────────────────

function requireDir(dir: string, what: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BfclInputError("BFCL_MISSING_DIR", `${what} not found: ${dir}`, { context: { dir } });
  }
}

/** BFCL's own order of its AST categories; others follow alphabetically. */
const CATEGORY_ORDER = ["simple", "multiple", "parallel", "parallel_multiple", "irrelevance"];

function categoryRank(file: string): [number, string] {
  const category = RESULT_FILE.exec(file)![2]!;
  const rank = CATEGORY_ORDER.indexOf(category);
  return [rank < 0 ? CATEGORY_ORDER.length : rank, category];
}

/** The v4 multi-turn result files of a folder. */
function v4ResultFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => V4_RESULT_FILE.test(f) && isMultiTurnResultCategory(V4_RESULT_FILE.exec(f)![1]!))
    .sort();
}

function hasResults(dir: string): boolean {
  return resultFiles(dir).length > 0 || v4ResultFiles(dir).length > 0;
}

/** The result files of a folder, in BFCL's category order. */
function resultFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => RESULT_FILE.test(f))
    .map((f) => ({ f, rank: categoryRank(f) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || (a.rank[1] < b.rank[1] ? -1 : a.rank[1] > b.rank[1] ? 1 : 0))
    .map(({ f }) => f);
}

/**
 * Result folders from command-line paths: a folder holding `BFCL_v3_<cat>_result.json` files is one
 * model; a folder without them whose subfolders hold them (BFCL's `result/`) is every such model.
 */
export function resolveResultDirs(paths: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const path of paths) {
    requireDir(path, "result folder");
    if (hasResults(path)) {
      dirs.push(path);
      continue;
    }
    const models = readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && hasResults(join(path, entry.name)))
      .map((entry) => join(path, entry.name))
      .sort();
    if (models.length === 0) {
      throw new BfclInputError(
        "BFCL_NO_RESULTS",
        `no BFCL_v3_<category>_result.json or BFCL_v4_multi_turn_<category>_result.json files in ${path} or its subfolders`,
        { context: { dir: path } },
      );
    }
    dirs.push(...models);
  }
  return [...new Set(dirs)];
}

/** The default score folder: `<root>/score/<model>` for a result folder `<root>/result/<model>`. */
export function defaultScoresDir(resultDir: string): string {
  return join(dirname(dirname(resultDir)), "score", basename(resultDir));
}

/** Loads every category found in `resultDir` with its data, answers and (if present) score file. */
export function loadCategoryInputs(resultDir: string, options: ScoreDirOptions): CategoryInput[] {
  requireDir(resultDir, "result folder");
  requireDataDir(options.dataDir);
  const scoresDir = options.scoresDir ?? defaultScoresDir(resultDir);
  if (options.scoresDir) requireDir(scoresDir, "score folder");
  const files = resultFiles(resultDir);
  if (files.length === 0 && v4ResultFiles(resultDir).length === 0) {
    throw new BfclInputError("BFCL_NO_RESULTS", `no BFCL_v3_<category>_result.json files in ${resultDir}`, {
      context: { dir: resultDir },
    });
  }
  return files.map((f) => {
    const [, version, category] = RESULT_FILE.exec(f) as unknown as [string, string, string];
    const resultFile = join(resultDir, f);
    const { questions, answers } = loadCategory(options.dataDir, category);
    const results = loadResults(resultFile);
    const scoreFile = join(scoresDir, `BFCL_${version}_${category}_score.json`);
    return {
      category,
      resultFile,
      results,
      questions,
      answers,
      score: existsSync(scoreFile)
        ? loadScoreFile(
            scoreFile,
            results.map((r) => r.id),
          )
        : undefined,
    };
  });
}

export function scoreResultDir(resultDir: string, options: ScoreDirOptions): CategoryScore[] {
  const v3 = resultFiles(resultDir).length > 0 ? loadCategoryInputs(resultDir, options) : [];
  return [...v3.map((input) => scoreCategory(input, options)), ...scoreMultiTurnDir(resultDir, options)];
}

/** The v4 multi-turn files of a folder, each with agreement where BFCL's score file is beside it. */
function scoreMultiTurnDir(resultDir: string, options: ScoreDirOptions): CategoryScore[] {
  const v4DataDir = options.v4DataDir ?? DEFAULT_BFCL_V4_DATA_DIR;
  const scoresDir = options.scoresDir ?? defaultScoresDir(resultDir);
  return v4ResultFiles(resultDir).map((f) => {
    const category = V4_RESULT_FILE.exec(f)![1]! as MultiTurnCategory;
    requireDir(v4DataDir, "BFCL v4 data folder");
    const resultFile = join(resultDir, f);
    const { entries, results } = scoreMultiTurnFile(category, resultFile, v4DataDir);
    const correct = entries.filter((e) => e.verdict.valid).length;
    const scoreFile = join(scoresDir, `BFCL_v4_${category}_score.json`);
    const score = existsSync(scoreFile)
      ? loadScoreFile(
          scoreFile,
          results.map((r) => r.id),
        )
      : undefined;
    const input = { category, resultFile, results, questions: new Map(), answers: new Map(), score };
    return {
      category,
      total: entries.length,
      correct,
      accuracy: entries.length === 0 ? 0 : correct / entries.length,
      entries,
      agreement: score ? compare(input, entries, score) : undefined,
      callsInEmptyTurns: entries.reduce((n, e) => n + e.callsInEmptyTurns, 0),
    };
  });
}
