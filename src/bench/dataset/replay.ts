/**
 * The gold replay: every item's gold calls executed against freshly reset servers (in order, on
 * shared state, so later calls see what earlier ones did), then its state checks and its answer check —
 * the answer check against the text of the gold results, since a grounded answer can only say what the
 * tools returned. An item whose gold does not satisfy its own checks is a dataset bug.
 *
 * The answer check must also hold on what the solver is SHOWN of those results (the agent's compact
 * rendering within its 800 characters): an answer that needs more than the pipeline can show is a
 * dataset item no model could pass through it.
 *
 * Gold calls hold literal values (the servers are deterministic, so an id found by a look-up is known),
 * and the replay checks their provenance instead of substituting: every identifier a gold call sends
 * must appear in the query or in an earlier gold result — else no model could know it.
 */

import { type Evidence, formatEvidence } from "../../agent/solver.ts";
import { observationText } from "../../agent/tool-runner.ts";
import { DEFAULT_LIMITS } from "../../agent/types.ts";
import { goldArgs } from "../../gold-value.ts";
import type { ClientPool } from "../../mcp/pool.ts";
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import { checkAnswer } from "./answer-check.ts";
import { type CheckVerdict, checkLabel, checkServer, isToolCallCheck, runToolCallCheck } from "./state-checks.ts";
import { type LoadedConversation, type LoadedItem, turnAsItem } from "./types.ts";

export interface ReplayFailure {
  id: string;
  file: string;
  line: number;
  reason: string;
}

export interface ReplayReport {
  passed: number;
  failed: number;
  failures: ReplayFailure[];
  /** Items not replayed to the end: a gold call that must not run here, and why. */
  skipped: ReplayFailure[];
}

/** The server side the replay needs (ClientPool implements it). */
export type ReplayHost = Pick<ClientPool, "callTool" | "resetTouched" | "control" | "listTools">;

export interface ReplayOptions {
  /** Why a gold call to this tool must not run (a write nothing can undo); undefined: it runs. */
  skipCall?: (tool: ToolDefinition) => string | undefined;
  onItem?: (done: number, total: number) => void;
}

export async function replayGold(
  items: readonly LoadedItem[],
  host: ReplayHost,
  options: ReplayOptions = {},
  conversations: readonly LoadedConversation[] = [],
): Promise<ReplayReport> {
  const failures: ReplayFailure[] = [];
  const skipped: ReplayFailure[] = [];
  const replays = [
    ...items.map((loaded) => ({ id: loaded.item.id, loaded, run: () => replayItem(loaded, host, options.skipCall) })),
    ...conversations.map((loaded) => ({
      id: loaded.conversation.id,
      loaded,
      run: () => replayConversation(loaded, host, options.skipCall),
    })),
  ];
  const total = replays.length;
  let done = 0;
  for (const { id, loaded, run } of replays) {
    const where = { id, file: loaded.file, line: loaded.line };
    const { reasons, skip } = await run();
    for (const reason of reasons) failures.push({ ...where, reason });
    if (skip) skipped.push({ ...where, reason: skip });
    options.onItem?.(++done, total);
  }
  const failedIds = new Set(failures.map((failure) => failure.id));
  const skippedOnly = skipped.filter((skip) => !failedIds.has(skip.id)).length;
  return { passed: total - failedIds.size - skippedOnly, failed: failedIds.size, failures, skipped };
}

/**
 * Replays a conversation turn by turn: the servers reset once before the first turn, so each turn's
 * calls and checks see what the earlier turns did; an identifier may come from any earlier turn's text,
 * reply or result. Reasons name the turn (`turn 2: …`); the replay stops at the first failing turn.
 */
export async function replayConversation(
  loaded: LoadedConversation,
  host: ReplayHost,
  skipCall: ReplayOptions["skipCall"] = () => undefined,
): Promise<{ reasons: string[]; skip?: string }> {
  const { conversation } = loaded;
  await host.resetTouched();
  const earlier: string[] = [];
  for (const [index, turn] of conversation.turns.entries()) {
    const item = turnAsItem(conversation, index);
    earlier.push(turn.user, turn.ask?.reply ?? "");
    const outcome = await replayItem({ item, file: loaded.file, line: loaded.line }, host, skipCall, {
      reset: false,
      earlier,
    });
    const label = (text: string) => `turn ${index + 1}: ${text}`;
    if (outcome.skip || outcome.reasons.length > 0) {
      return { reasons: outcome.reasons.map(label), ...(outcome.skip ? { skip: label(outcome.skip) } : {}) };
    }
  }
  return { reasons: [] };
}

/**
 * Replays one item: what went wrong (none = the gold satisfies the item's checks), and why it stopped
 * early when a gold call must not run (its calls before that one still replayed).
 */
export async function replayItem(
  loaded: LoadedItem,
  host: ReplayHost,
  skipCall: ReplayOptions["skipCall"] = () => undefined,
  conversation: { reset: boolean; earlier: string[] } = { reset: true, earlier: [] },
): Promise<{ reasons: string[]; skip?: string }> {
  const { item } = loaded;
  const reasons: string[] = [];
  if (conversation.reset) await host.resetTouched();
  // A conversation's earlier texts and results (and this turn's, as they come) are what a model knows.
  const texts = conversation.earlier;
  const evidence: Evidence[] = [];
  for (const [index, call] of item.calls.entries()) {
    const tool = host.listTools().find((candidate) => candidate.name === call.tool);
    const skip = tool && skipCall(tool);
    if (skip) return { reasons, skip: `gold call ${index + 1} and what follows not replayed: ${skip}` };
    const schema = tool?.inputSchema;
    const args = goldArgs(call, schema);
    const known = `${item.query}\n${texts.join("\n")}`.toLowerCase();
    for (const id of identifiersIn(args)) {
      if (!known.includes(id.toLowerCase())) {
        reasons.push(
          `gold call ${index + 1} ${call.tool} sends ${id}, found neither in the query nor in an earlier result`,
        );
      }
    }
    const result = await host.callTool(call.tool, args);
    if (!result.ok) {
      reasons.push(`gold call ${index + 1} ${call.tool} failed: ${result.text}`);
      return { reasons };
    }
    texts.push(result.text, JSON.stringify(result.data ?? null));
    evidence.push({ source: `#E${index + 1} ${call.tool}`, ok: true, text: result.text, data: result.data });
  }
  for (const check of item.state ?? []) {
    const name = `state check ${checkServer(check)}.${checkLabel(check)}`;
    let outcome: CheckVerdict;
    try {
      outcome = isToolCallCheck(check)
        ? await runToolCallCheck(host, check)
        : await host.control.check(check.server, check.expect, check.args);
    } catch (error) {
      reasons.push(`${name} could not run: ${(error as Error).message}`);
      continue;
    }
    if (outcome.notRun) reasons.push(`${name} could not run: ${outcome.detail}`);
    else if (outcome.pass === Boolean(check.negate)) {
      const wanted = check.negate ? "fail" : "pass";
      reasons.push(`${name} should ${wanted}: ${outcome.detail}`);
    }
  }
  if (item.answer && item.calls.length > 0) {
    // notContains limits what the answer may say, not what the tools return: not checked here.
    const { contains, anyOf, regex } = item.answer;
    const verdict = checkAnswer({ contains, anyOf, regex }, texts.join("\n"));
    if (!verdict.pass) {
      reasons.push(`answer check not supported by the gold results: ${verdict.failures.join("; ")}`);
    } else {
      // what the pipeline shows a model of these results — the solver all of them within its budget, a
      // loop (ReAct, native, jsonl) each as one observation: an answer can only say what it sees
      const views = {
        [`solver's ${DEFAULT_LIMITS.solverDataChars}-character view`]: formatEvidence(
          evidence,
          DEFAULT_LIMITS.solverDataChars,
          item.query,
        ).join("\n"),
        [`${DEFAULT_LIMITS.observationChars}-character observations`]: evidence
          .map((result) => observationText(result, DEFAULT_LIMITS.observationChars, item.query))
          .join("\n"),
      };
      for (const [name, view] of Object.entries(views)) {
        const seen = checkAnswer({ contains, anyOf, regex }, view);
        if (!seen.pass)
          reasons.push(`answer check not supported by the ${name} of the gold results: ${seen.failures.join("; ")}`);
      }
    }
  }
  return { reasons };
}

/** Values that are identifiers no one can guess: UUIDs, Slack ids and timestamps, commit shas, long tokens. */
const IDENTIFIER =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[CUDGW][A-Z0-9]{7,}|\d{9,}\.\d{6}|[0-9a-f]{7,40}|[a-z0-9]{20,})$/;

export function identifiersIn(value: unknown): string[] {
  if (typeof value === "string") return IDENTIFIER.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(identifiersIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(identifiersIn);
  return [];
}
