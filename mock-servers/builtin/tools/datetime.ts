import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { requireParameter } from "./arguments.ts";
import {
  assertTimeZone,
  daysInMonth,
  formatWall,
  instantOf,
  isoInZone,
  normalizeWall,
  offsetMinutes,
  STRFTIME_DIRECTIVES,
  type WallTime,
  wallAsUtcMs,
  wallTimeAt,
  weekdayName,
} from "./zoned-time.ts";

const OPERATIONS = ["now", "format", "add", "diff", "day_of_week"] as const;
const UNITS = ["seconds", "minutes", "hours", "days", "weeks", "months", "years"] as const;
type Unit = (typeof UNITS)[number];

const DEFAULT_FORMAT = "%Y-%m-%d %H:%M:%S";
const DATE_ONLY_FORMAT = "%Y-%m-%d";
/** Units measured on the clock (absolute time) vs on the calendar (wall-clock days, DST-safe). */
const UNIT_MS: Record<Exclude<Unit, "months" | "years">, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};
const isClockUnit = (unit: Unit) => unit === "seconds" || unit === "minutes" || unit === "hours";

const RELATIVE_DAYS: Record<string, number> = { today: 0, tomorrow: 1, yesterday: -1 };

const ISO_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

interface ParsedMoment {
  instant: Date;
  /** True when the input named a calendar day only (results then stay date-only where that makes sense). */
  dateOnly: boolean;
}

/** Parses an ISO date/datetime (naive times are wall-clock times in `timeZone`) or now/today/tomorrow/yesterday. */
function parseMoment(text: string | undefined, now: Date, timeZone: string): ParsedMoment {
  const input = (text ?? "now").trim();
  const keyword = input.toLowerCase();
  if (keyword === "now") return { instant: now, dateOnly: false };
  if (Object.hasOwn(RELATIVE_DAYS, keyword)) {
    return {
      instant: addToMoment(startOfDay(now, timeZone), RELATIVE_DAYS[keyword]!, "days", timeZone),
      dateOnly: true,
    };
  }
  const match = ISO_INPUT.exec(input);
  if (!match) {
    throw new ToolError(
      "invalid_date",
      `Cannot read date "${input}"; use ISO format YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM], or now/today/tomorrow/yesterday`,
    );
  }
  const [, year, month, day, hour, minute, second, zone] = match;
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
  };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > daysInMonth(wall.year, wall.month)) {
    throw new ToolError("invalid_date", `"${input}" is not a real calendar date`);
  }
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) {
    throw new ToolError("invalid_date", `"${input}" has an impossible time of day`);
  }
  const dateOnly = hour === undefined;
  if (zone) {
    const offset = zone.toUpperCase() === "Z" ? 0 : parseOffset(zone);
    return {
      instant: new Date(
        Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - offset * 60_000,
      ),
      dateOnly,
    };
  }
  return { instant: instantOf(wall, timeZone), dateOnly };
}

function parseOffset(zone: string): number {
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith("-") ? -minutes : minutes;
}

/** Adds time: clock units exactly; days/weeks in wall-clock time (DST-safe); months/years clamp to the month's
 * last day (Jan 31 + 1 month = Feb 28). */
function addToMoment(instant: Date, amount: number, unit: Unit, timeZone: string): Date {
  if (isClockUnit(unit)) return new Date(instant.getTime() + amount * UNIT_MS[unit as keyof typeof UNIT_MS]);
  const wall = wallTimeAt(instant, timeZone);
  if (unit === "days" || unit === "weeks") {
    return instantOf(normalizeWall({ ...wall, day: wall.day + amount * (unit === "weeks" ? 7 : 1) }), timeZone);
  }
  const totalMonths = wall.year * 12 + (wall.month - 1) + amount * (unit === "years" ? 12 : 1);
  const year = Math.floor(totalMonths / 12);
  const month = (totalMonths % 12) + 1;
  return instantOf({ ...wall, year, month, day: Math.min(wall.day, daysInMonth(year, month)) }, timeZone);
}

/** Signed difference `to - from` in a unit; days/weeks count wall-clock time, months/years whole calendar months. */
function difference(from: Date, to: Date, unit: Unit, timeZone: string): number {
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  if (isClockUnit(unit)) return round((to.getTime() - from.getTime()) / UNIT_MS[unit as keyof typeof UNIT_MS]);
  const a = wallTimeAt(from, timeZone);
  const b = wallTimeAt(to, timeZone);
  if (unit === "days" || unit === "weeks") return round((wallAsUtcMs(b) - wallAsUtcMs(a)) / UNIT_MS[unit]);
  // Whole months: the month count, minus one if the later date has not reached the earlier one's day/time.
  const withinMonth = (w: WallTime) => ((w.day * 24 + w.hour) * 60 + w.minute) * 60 + w.second;
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  if (months > 0 && withinMonth(b) < withinMonth(a)) months -= 1;
  if (months < 0 && withinMonth(b) > withinMonth(a)) months += 1;
  return unit === "years" ? Math.trunc(months / 12) : months;
}

function startOfDay(instant: Date, timeZone: string): Date {
  return instantOf({ ...wallTimeAt(instant, timeZone), hour: 0, minute: 0, second: 0 }, timeZone);
}

function describeMoment(instant: Date, timeZone: string, pattern: string) {
  const wall = wallTimeAt(instant, timeZone);
  return {
    result: formatWall(wall, pattern, offsetMinutes(instant, timeZone), timeZone),
    iso: isoInZone(instant, timeZone),
    day_of_week: weekdayName(wall),
  };
}

export const datetimeTool: ToolSpec<unknown> = {
  name: "datetime",
  description:
    "Get the current date/time, format a date, add or subtract time, count the time between two dates, or find the " +
    "day of the week. Dates are ISO (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, optional Z/±HH:MM) or now/today/tomorrow/" +
    "yesterday; times without an offset are read in `timezone`.",
  inputSchema: {
    type: "object",
    properties: {
      operation: {
        type: "string",
        enum: [...OPERATIONS],
        description:
          "now (current date/time), format (render `date` with `format`), add (`date` + `amount` `unit`; negative subtracts), " +
          "diff (`date2` minus `date` in `unit`), day_of_week (weekday of `date`).",
      },
      date: {
        type: "string",
        description: "The date to work on (default: now), e.g. '2026-03-16' or '2026-03-16T14:30:00'.",
      },
      date2: { type: "string", description: "Second date for diff, e.g. '2026-12-25'." },
      amount: { type: "integer", description: "How many units to add for add (negative to subtract), e.g. 30." },
      unit: { type: "string", enum: [...UNITS], default: "days", description: "Unit for add and diff (default days)." },
      timezone: {
        type: "string",
        default: "UTC",
        description: "IANA time zone, e.g. 'UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo' (default UTC).",
      },
      format: {
        type: "string",
        description: `strftime pattern for now/format/add (default '${DEFAULT_FORMAT}'); directives ${STRFTIME_DIRECTIVES.join(" ")}.`,
      },
    },
    required: ["operation"],
  },
  outputSchema: {
    type: "object",
    properties: {
      operation: { type: "string" },
      result: { type: ["string", "number"], description: "Formatted date, weekday name, or (diff) a number of units." },
      timezone: { type: "string" },
      iso: { type: "string", description: "The resulting moment in ISO 8601 with the zone's offset." },
      day_of_week: { type: "string" },
      unit: { type: "string" },
    },
    required: ["operation", "result", "timezone"],
  },
  annotations: { title: "Date and time", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { now }) => {
    const operation = String(args.operation) as (typeof OPERATIONS)[number];
    const timeZone = String(args.timezone ?? "UTC").trim();
    assertTimeZone(timeZone);
    const unit = (args.unit ?? "days") as Unit;
    const explicitFormat = args.format as string | undefined;
    if (operation === "now") {
      return { operation, timezone: timeZone, ...describeMoment(now, timeZone, explicitFormat ?? DEFAULT_FORMAT) };
    }
    const date = parseMoment(args.date as string | undefined, now, timeZone);

    switch (operation) {
      case "format": {
        const pattern = explicitFormat ?? (date.dateOnly ? DATE_ONLY_FORMAT : DEFAULT_FORMAT);
        return { operation, timezone: timeZone, ...describeMoment(date.instant, timeZone, pattern) };
      }
      case "add": {
        const amount = requireParameter<number>(args, "amount", operation);
        const resultPattern =
          explicitFormat ?? (date.dateOnly && !isClockUnit(unit) ? DATE_ONLY_FORMAT : DEFAULT_FORMAT);
        const moved = addToMoment(date.instant, amount, unit, timeZone);
        return { operation, timezone: timeZone, unit, ...describeMoment(moved, timeZone, resultPattern) };
      }
      case "diff": {
        const other = parseMoment(requireParameter<string>(args, "date2", operation), now, timeZone);
        // "Days until 2026-12-25" counts calendar days: with a date-only input, times of day are ignored.
        const calendar = (date.dateOnly || other.dateOnly) && !isClockUnit(unit);
        const from = calendar ? startOfDay(date.instant, timeZone) : date.instant;
        const to = calendar ? startOfDay(other.instant, timeZone) : other.instant;
        return { operation, timezone: timeZone, unit, result: difference(from, to, unit, timeZone) };
      }
      case "day_of_week": {
        const described = describeMoment(date.instant, timeZone, DATE_ONLY_FORMAT);
        return {
          operation,
          timezone: timeZone,
          result: described.day_of_week,
          iso: described.iso,
          day_of_week: described.day_of_week,
        };
      }
    }
  },
};
