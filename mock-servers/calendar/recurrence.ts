import { BoundedCache } from "../../src/memo.ts";
import { ToolError } from "../kit/errors.ts";

/** A small RRULE engine: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with INTERVAL, BYDAY (weekly), COUNT and UNTIL. */

const DAY_MS = 86_400_000;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const MAX_INSTANCES = 1000;

export interface Rule {
  freq: "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
  interval: number;
  byDay: number[];
  count?: number;
  until?: number;
}

const ruleLine = (lines: string[]) => lines.find((candidate) => candidate.startsWith("RRULE:"));

export function parseRule(lines: string[]): Rule | undefined {
  const line = ruleLine(lines);
  if (!line) return undefined;
  const parts = Object.fromEntries(
    line
      .slice(6)
      .split(";")
      .map((part) => part.split("=") as [string, string]),
  );
  const freq = parts.FREQ;
  if (freq !== "DAILY" && freq !== "WEEKLY" && freq !== "MONTHLY" && freq !== "YEARLY") {
    throw new ToolError(
      "invalid_recurrence",
      `unsupported or missing FREQ in "${line}" (use DAILY, WEEKLY, MONTHLY or YEARLY)`,
    );
  }
  const byDay = (parts.BYDAY ?? "")
    .split(",")
    .filter(Boolean)
    .map((day) => {
      const index = WEEKDAYS.indexOf(day.slice(-2));
      if (index < 0) throw new ToolError("invalid_recurrence", `unknown BYDAY value "${day}" in "${line}"`);
      return index;
    });
  const until = parts.UNTIL ? parseUntil(parts.UNTIL, line) : undefined;
  const interval = parts.INTERVAL ? Number(parts.INTERVAL) : 1;
  const count = parts.COUNT ? Number(parts.COUNT) : undefined;
  if (!Number.isInteger(interval) || interval < 1 || (count !== undefined && (!Number.isInteger(count) || count < 1))) {
    throw new ToolError("invalid_recurrence", `INTERVAL and COUNT must be positive integers in "${line}"`);
  }
  return { freq, interval, byDay, count, until };
}

function parseUntil(value: string, line: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})(T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value);
  if (!match) throw new ToolError("invalid_recurrence", `UNTIL must look like 20260331T235959Z in "${line}"`);
  const [, y, m, d, , hh = "23", mm = "59", ss = "59"] = match;
  return Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh), Number(mm), Number(ss));
}

export function formatUntil(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** Replaces (or adds) UNTIL in a recurrence, dropping COUNT, to end a series before an instant. */
export function withUntil(lines: string[], until: number): string[] {
  return lines.map((line) => {
    if (!line.startsWith("RRULE:")) return line;
    const parts = line
      .slice(6)
      .split(";")
      .filter((part) => !part.startsWith("UNTIL=") && !part.startsWith("COUNT="));
    return `RRULE:${[...parts, `UNTIL=${formatUntil(until)}`].join(";")}`;
  });
}

/** Start instants of a series that begin before `limit` (UTC arithmetic: a series keeps its UTC time across DST). */
export function occurrences(rule: Rule, first: number, limit: number): number[] {
  const result: number[] = [];
  const accept = (ms: number) => {
    if (ms < first || (rule.until !== undefined && ms > rule.until) || ms >= limit) return false;
    result.push(ms);
    return true;
  };
  const done = () => (rule.count !== undefined && result.length >= rule.count) || result.length >= MAX_INSTANCES;
  const start = new Date(first);
  for (let step = 0; !done(); step++) {
    let candidates: number[];
    if (rule.freq === "DAILY") candidates = [first + step * rule.interval * DAY_MS];
    else if (rule.freq === "WEEKLY") {
      const weekStart = first - start.getUTCDay() * DAY_MS + step * rule.interval * 7 * DAY_MS;
      const days = rule.byDay.length > 0 ? rule.byDay : [start.getUTCDay()];
      candidates = days.map((day) => weekStart + day * DAY_MS);
    } else {
      const months = rule.freq === "MONTHLY" ? step * rule.interval : step * rule.interval * 12;
      const candidate = new Date(first);
      candidate.setUTCMonth(candidate.getUTCMonth() + months);
      candidates = candidate.getUTCDate() === start.getUTCDate() ? [candidate.getTime()] : [];
    }
    if (step > 100_000) break;
    if (candidates.length === 0) continue; // e.g. the 31st in a 30-day month
    const earliest = Math.min(...candidates);
    if (earliest >= limit || (rule.until !== undefined && earliest > rule.until)) break;
    for (const candidate of candidates.sort((a, b) => a - b)) if (!done()) accept(candidate);
  }
  return result;
}

// Keyed by everything the starts depend on (the RRULE line, first start, limit); frozen because callers share them.
const seriesCache = new BoundedCache<string, readonly number[]>(1024);

/**
 * occurrences() of the series a recurrence describes (undefined without an RRULE), memoised: every read expands
 * the same few series over the same windows. A malformed rule throws each time, as parseRule does.
 */
export function seriesStarts(lines: string[], first: number, limit: number): readonly number[] | undefined {
  const line = ruleLine(lines);
  if (!line) return undefined;
  return seriesCache.get(`${first} ${limit} ${line}`, () =>
    Object.freeze(occurrences(parseRule([line])!, first, limit)),
  );
}
