/**
 * A conversation record (a run of conversations): what it was, its outcome, then turn by turn the
 * user's text, the scripted user's reply when the agent asked, the turn's checks and its trace (one
 * trace per run of the agent: two when it asked). The record's item page hands it over (item.ts).
 */
import type { ConversationRecord, TurnRecord } from "../../../bench/conversation/run-conversation.ts";
import { badge, el, mount } from "../dom.ts";
import { traceView } from "../trace.ts";
import type { Check, ItemDetail } from "../types.ts";
import { checksTable, recordHeader } from "./item.ts";

export function mountConversation(
  root: HTMLElement,
  runId: string,
  record: ItemDetail,
  conversation: ConversationRecord,
): void {
  const turns = conversation.turns.length;
  const outcome = conversation.success
    ? `all ${turns} turns right`
    : conversation.firstFailingTurn === null
      ? `stopped after ${turns} turns`
      : `first failing turn: ${conversation.firstFailingTurn + 1} (${conversation.turnsCompleted} right before it)`;
  mount(
    root,
    recordHeader(runId, record, `conversation (${conversation.kind}) · ${turns} turns`),
    el("p", { id: "conversation-outcome" }, outcome),
    conversation.turns.map((turn, index) => turnView(turn, record.turnChecks?.[index] ?? [])),
  );
}

function turnView(turn: TurnRecord, checks: Check[]): HTMLElement {
  const number = turn.index + 1;
  return el(
    "section",
    { class: "turn", "data-turn": number },
    el("h2", {}, `Turn ${number} `, turn.ok ? badge("pass", "pass") : badge("fail", "fail")),
    el("blockquote", { class: "query user" }, turn.user),
    turn.reply === undefined
      ? null
      : el(
          "div",
          { class: "reply" },
          el(
            "p",
            {},
            turn.askNeeded
              ? "The agent asked; the scripted user replied:"
              : "The agent asked needlessly; the scripted user replied:",
          ),
          el("blockquote", { class: "query reply-text" }, turn.reply),
        ),
    el("h3", {}, "Checks"),
    checksTable(checks, `checks-turn-${number}`),
    turn.runs.map((run, index) =>
      el(
        "div",
        { class: "turn-run", "data-run": index + 1 },
        el("h3", {}, turn.runs.length > 1 ? `Trace, run ${index + 1} of ${turn.runs.length}` : "Trace"),
        traceView(run),
      ),
    ),
  );
}
