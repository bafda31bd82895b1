/**
 * Result fixtures that are not the ground truth, built from it, for the checker-agreement test:
 * one call dropped, one argument changed, one extra state-changing call, and (miss_func, miss_param)
 * a call in the turn whose ground truth is empty (the next turn's first call, made early). Each is checked by BFCL's Python checker
 * (bfcl_checker_oracle.py) and by ours; the verdicts must agree.
 */

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../../../paths.ts";
import { DEFAULT_BFCL_V4_DATA_DIR, v4AnswersFile, v4QuestionsFile } from "../../paths.ts";
import { checkDecodedTurns } from "../checker.ts";
import { type MultiTurnCategory, type MultiTurnEntry, readCategory } from "../entries.ts";
import { BFCL_PYTHON_DIR } from "./parity.ts";

const ORACLE = join(REPO_ROOT, "src", "bfcl", "multi-turn", "testing", "bfcl_checker_oracle.py");

export interface Fixture {
  readonly fixture: string;
  readonly id: string;
  readonly decoded: string[][][];
}

/** A call that changes the state of an entry's environment (the first class that has one). */
const EXTRA_CALLS: Record<string, string> = {
  GorillaFileSystem: "touch(file_name='fixture_extra.txt')",
  MessageAPI: "add_contact(user_name='Fixture Extra')",
  TicketAPI: "ticket_login(username='fixture', password='extra')",
  TravelAPI:
    "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read', user_first_name='F', user_last_name='L')",
  TradingBot: "add_to_watchlist(stock='ZETA')",
  VehicleControlAPI: "setHeadlights(mode='on')",
  TwitterAPI: "mention(tweet_id=0, mentioned_usernames=['fixture'])",
};

const asSteps = (truth: readonly (readonly string[])[]): string[][][] =>
  truth.map((calls) => (calls.length > 0 ? [[...calls]] : []));

function changeOneArgument(call: string): string | undefined {
  if (/=\s*'[^']*'/.test(call)) return call.replace(/=\s*'([^']*)'/, "='$1_changed'");
  if (/=\s*\d+/.test(call)) return call.replace(/=\s*(\d+)/, (_, n: string) => `=${Number(n) + 1}`);
  return undefined;
}

export function fixturesFor(entry: MultiTurnEntry, truth: readonly (readonly string[])[]): Fixture[] {
  const out: Fixture[] = [];
  const first = truth.findIndex((calls) => calls.length > 0);
  if (first < 0) return out;
  const dropped = asSteps(truth);
  dropped[first] = [truth[first]!.slice(0, -1)].filter((calls) => calls.length > 0);
  out.push({ fixture: `${entry.id}:drop`, id: entry.id, decoded: dropped });

  for (const [t, calls] of truth.entries()) {
    const i = calls.findIndex((call) => changeOneArgument(call) !== undefined);
    if (i < 0) continue;
    const changed = asSteps(truth);
    changed[t] = [calls.map((call, j) => (j === i ? changeOneArgument(call)! : call))];
    out.push({ fixture: `${entry.id}:argument`, id: entry.id, decoded: changed });
    break;
  }

  const extraClass = entry.involvedClasses.find((name) => EXTRA_CALLS[name] !== undefined);
  if (extraClass) {
    const extra = asSteps(truth);
    extra[first] = [[...truth[first]!, EXTRA_CALLS[extraClass]!]];
    out.push({ fixture: `${entry.id}:extra`, id: entry.id, decoded: extra });
  }

  // miss_func / miss_param: the turn whose ground truth is empty, where a model should not call
  const empty = truth.findIndex((calls) => calls.length === 0);
  const later = empty < 0 ? undefined : truth.slice(empty + 1).find((calls) => calls.length > 0);
  if (later) {
    const early = asSteps(truth);
    early[empty] = [[later[0]!]];
    out.push({ fixture: `${entry.id}:call-in-empty-turn`, id: entry.id, decoded: early });
  }
  return out;
}

export interface AgreementReport {
  readonly fixtures: number;
  readonly agreed: number;
  readonly failing: number;
  readonly disagreements: string[];
}

export function checkerAgreement(
  python: string,
  category: MultiTurnCategory,
  dataDir = DEFAULT_BFCL_V4_DATA_DIR,
): AgreementReport {
  const { entries, groundTruth } = readCategory(dataDir, category);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const fixtures = entries.flatMap((entry) => fixturesFor(entry, groundTruth.get(entry.id) ?? []));
  const run = spawnSync(
    python,
    [ORACLE, BFCL_PYTHON_DIR, v4QuestionsFile(dataDir, category), v4AnswersFile(dataDir, category)],
    {
      input: fixtures.map((f) => JSON.stringify(f)).join("\n"),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  if (run.status !== 0)
    throw new Error(`bfcl_checker_oracle.py failed on ${category}: ${run.stderr || run.error?.message}`);
  const python_ = run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const disagreements: string[] = [];
  let failing = 0;
  fixtures.forEach((fixture, i) => {
    const ours = checkDecodedTurns(byId.get(fixture.id)!, groundTruth.get(fixture.id)!, fixture.decoded);
    const theirs = python_[i]!;
    if (!ours.valid) failing++;
    const same =
      theirs.fixture === fixture.fixture &&
      theirs.valid === ours.valid &&
      (theirs.error_type ?? undefined) === ours.errorType &&
      (theirs.error_message ?? undefined) === ours.errorMessage;
    if (!same)
      disagreements.push(
        `${fixture.fixture}: BFCL ${String(theirs.valid)} ${String(theirs.error_type)} "${String(theirs.error_message)}"; ours ${ours.valid} ${ours.errorType} "${ours.errorMessage}"`,
      );
  });
  return { fixtures: fixtures.length, agreed: fixtures.length - disagreements.length, failing, disagreements };
}
