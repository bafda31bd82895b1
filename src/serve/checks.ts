/**
 * A record's score told check by check: each requirement of task success, whether it held, and why —
 * what a reader needs to see which check failed without reading the score's fields.
 */
import type { ConversationRecord } from "../bench/conversation/run-conversation.ts";
import type { RunRecord } from "../bench/run/run-file-types.ts";

export interface Check {
  name: string;
  pass: boolean;
  why: string;
}

/** `GET /runs/:id/items/:key`: the record, its checks, and a conversation's checks turn by turn. */
export type ItemDetail = RunRecord & { checks: Check[]; turnChecks?: Check[][] };

/**
 * A conversation's checks per turn: the turn's own requirements (told as a record's are), then whether
 * the agent asked exactly when the turn needed it.
 */
export function turnChecks(record: RunRecord, conversation: ConversationRecord): Check[][] {
  return conversation.turns.map((turn) => {
    const result = turn.runs.find((run) => run.error) ?? turn.runs.at(-1)!;
    const asked = turn.asked === turn.askNeeded;
    return [
      ...recordChecks({ ...record, score: turn.score, result }),
      { name: "asked", pass: asked, why: askedWhy(turn.askNeeded, turn.asked) },
    ];
  });
}

function askedWhy(needed: boolean, asked: boolean): string {
  if (needed)
    return asked ? "a value was missing, and the agent asked" : "a value was missing, and the agent did not ask";
  return asked ? "the agent asked where the turn gave everything it needed" : "no question needed, none asked";
}

export function recordChecks(record: RunRecord): Check[] {
  const { score, result } = record;
  return score.requirements.map(({ name, ok }) => ({ name, pass: ok, why: why(name, ok) }));

  function why(name: string, ok: boolean): string {
    switch (name) {
      case "no_run_error":
        return result.error ? `${result.error.stage}: ${result.error.message}` : "the run ended without error";
      case "calls": {
        const { expected, called } = score.toolChoice;
        const wrong = score.params.pairings
          .filter((pairing) => !pairing.correct)
          .map((pairing) => {
            if (pairing.actualSeq === null) return `${pairing.tool} was not called`;
            const args = pairing.args.filter((arg) => !arg.ok).map((arg) => `${arg.param} (${arg.error ?? "wrong"})`);
            return `${pairing.tool}: ${args.length > 0 ? `wrong ${args.join(", ")}` : "out of order"}`;
          });
        const base = `expected ${expected.join(", ") || "none"}; called ${called.join(", ") || "none"}`;
        return ok || wrong.length === 0 ? base : `${base}; ${wrong.join("; ")}`;
      }
      case "no_extra_write":
        return ok ? "no write beyond the gold calls" : "a write tool was called that the item does not ask for";
      case "abstention": {
        const abstention = score.abstention;
        if (!abstention) return ok ? "held" : "failed";
        const rule = abstention.rule === "no_call" ? "no tool call at all" : "no call to a forbidden tool";
        return abstention.ok ? `${rule}: held` : `${rule}: called ${abstention.offending.join(", ")}`;
      }
      case "state":
        return (score.state?.checks ?? [])
          .map(
            (check) =>
              `${check.ok ? "✓" : "✗"} ${check.negate ? "not " : ""}${check.expect} on ${check.server}: ${check.detail}`,
          )
          .join("; ");
      case "answer":
        return score.answer?.ok ? "the answer holds every expected part" : `failed: ${score.answer?.failed.join("; ")}`;
      default:
        return ok ? "held" : "failed";
    }
  }
}
