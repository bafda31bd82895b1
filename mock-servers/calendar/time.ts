import { BoundedCache } from "../../src/memo.ts";
import { ToolError } from "../kit/errors.ts";

/** Time zones and ISO strings: Google Calendar's rules (local times are read in a zone; all-day dates are zone-free). */

const DAY_MS = 86_400_000;

interface ZonedParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: string;
}

/** A zone's formatter and the wall-clock parts it produced, by instant: Intl formatting is slow and instants recur. */
interface ZoneInfo {
  format: Intl.DateTimeFormat;
  parts: BoundedCache<number, ZonedParts>;
}

// Bounded both ways (a few dozen zones × a few thousand instants) so a long session stays small.
const zones = new BoundedCache<string, ZoneInfo>(64);
const INSTANTS_PER_ZONE = 4096;

/** Throws Intl's RangeError for a name that is not an IANA zone. */
function zoneInfo(zone: string): ZoneInfo {
  return zones.get(zone, () => ({
    format: new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
    }),
    parts: new BoundedCache<number, ZonedParts>(INSTANTS_PER_ZONE),
  }));
}

export function requireTimeZone(zone: string): string {
  try {
    zoneInfo(zone);
    return zone;
  } catch {
    throw new ToolError("invalid_timezone", `"${zone}" is not a valid IANA time zone (e.g. America/Los_Angeles, UTC)`);
  }
}

function zonedParts(ms: number, zone: string): ZonedParts {
  const { format, parts } = zoneInfo(zone);
  return parts.get(ms, () => {
    const found = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
    return {
      year: Number(found.year),
      month: Number(found.month),
      day: Number(found.day),
      hour: Number(found.hour),
      minute: Number(found.minute),
      second: Number(found.second),
      weekday: String(found.weekday),
    };
  });
}

/** Offset of a zone at an instant, in minutes east of UTC. */
export function offsetMinutes(ms: number, zone: string): number {
  const p = zonedParts(ms, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time in a zone (two passes settle DST edges). */
export function zonedToInstant(local: string, zone: string): number {
  const guess = Date.parse(`${local}Z`);
  let ms = guess - offsetMinutes(guess, zone) * 60_000;
  ms = guess - offsetMinutes(ms, zone) * 60_000;
  return ms;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

export function formatOffset(minutes: number): string {
  return `${minutes < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** RFC 3339 in a zone, as Google returns it: "2026-03-16T09:00:00Z" for UTC, else with the zone's offset. */
export function formatInZone(ms: number, zone: string): string {
  const p = zonedParts(ms, zone);
  const offset = offsetMinutes(ms, zone);
  const stamp = `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  return `${stamp}${offset === 0 ? "Z" : formatOffset(offset)}`;
}

export function dayOfWeek(ms: number, zone: string): string {
  return zonedParts(ms, zone).weekday;
}

/** Midnight starting an all-day date, in a zone. */
export function startOfDate(date: string, zone: string): number {
  return zonedToInstant(`${date}T00:00:00`, zone);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A parsed start/end: an all-day date, or an instant plus the zone it was given in. */
export type TimeInput = { date: string } | { instant: number; timeZone: string };

/**
 * Reads a time argument: "2026-03-16T10:00:00" (local to `zone`), with Z/offset, a date "2026-03-16",
 * or a JSON string {"dateTime": …, "timeZone": …} / {"date": …}.
 */
export function parseTimeInput(value: string, zone: string, parameter: string): TimeInput {
  const text = value.trim();
  if (text.startsWith("{")) {
    let parsed: { dateTime?: unknown; date?: unknown; timeZone?: unknown };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalidTime(parameter, value);
    }
    if (typeof parsed.date === "string") return parseTimeInput(parsed.date, zone, parameter);
    const inner = typeof parsed.timeZone === "string" ? requireTimeZone(parsed.timeZone) : zone;
    if (typeof parsed.dateTime === "string") return parseTimeInput(parsed.dateTime, inner, parameter);
    throw invalidTime(parameter, value);
  }
  if (DATE.test(text) && !Number.isNaN(Date.parse(text))) return { date: text };
  if (LOCAL.test(text))
    return { instant: zonedToInstant(text.length === 16 ? `${text}:00` : text, zone), timeZone: zone };
  if (ABSOLUTE.test(text) && !Number.isNaN(Date.parse(text))) return { instant: Date.parse(text), timeZone: zone };
  throw invalidTime(parameter, value);
}

/** A time argument as an instant (a date counts from its midnight in `zone`). */
export function parseInstant(value: string, zone: string, parameter: string): number {
  const parsed = parseTimeInput(value, zone, parameter);
  return "date" in parsed ? startOfDate(parsed.date, zone) : parsed.instant;
}

function invalidTime(parameter: string, value: string): ToolError {
  return new ToolError(
    "invalid_argument",
    `${parameter}: "${value}" is not a valid time. Use ISO 8601, e.g. 2026-03-16T10:00:00 (in the calendar's time zone), 2026-03-16T10:00:00Z, or a date 2026-03-16 for all-day events`,
  );
}
