/** Wall-clock arithmetic in IANA time zones with Intl only (no date library): fields ↔ instants, strftime. */
import { ToolError } from "../../kit/errors.ts";

export interface WallTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter for a zone; an unknown zone is a tool error with examples of valid names. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch (error) {
      throw new ToolError(
        "invalid_timezone",
        `Unknown time zone "${timeZone}" (${(error as Error).message}); use an IANA name such as "UTC", ` +
          `"America/New_York", "Europe/London" or "Asia/Tokyo"`,
      );
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

/** The wall-clock fields of an instant in a zone. */
export function wallTimeAt(instant: Date, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, Number(part.value)]),
  );
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The wall-clock fields read as if they were UTC: differences of these are calendar (DST-free) durations. */
export function wallAsUtcMs(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** Offset of the zone from UTC at an instant, in minutes (e.g. -240 for New York in summer). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((wallAsUtcMs(wallTimeAt(new Date(whole), timeZone)) - whole) / 60_000);
}

/** The instant whose wall-clock time in the zone is `wall` (two passes settle DST transitions). */
export function instantOf(wall: WallTime, timeZone: string): Date {
  const guess = wallAsUtcMs(wall);
  let instant = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  instant = guess - offsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

/** Normalises out-of-range fields (month 14, day 0 …) through Date.UTC arithmetic. */
export function normalizeWall(wall: WallTime): WallTime {
  const date = new Date(wallAsUtcMs(wall));
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function weekdayName(wall: WallTime): string {
  return WEEKDAYS[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()]!;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

function offsetText(minutes: number, separator: string): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${separator}${pad(abs % 60)}`;
}

/** ISO 8601 with the zone's offset, e.g. 2026-03-16T05:30:00-04:00 (Z for UTC). */
export function isoInZone(instant: Date, timeZone: string): string {
  const wall = wallTimeAt(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  return `${formatWall(wall, "%Y-%m-%dT%H:%M:%S")}${offset === 0 ? "Z" : offsetText(offset, ":")}`;
}

function dayOfYear(wall: WallTime): number {
  return Math.round((Date.UTC(wall.year, wall.month - 1, wall.day) - Date.UTC(wall.year, 0, 1)) / 86_400_000) + 1;
}

const DIRECTIVES: Record<string, (wall: WallTime, offset: number, timeZone: string) => string> = {
  Y: (w) => String(w.year),
  y: (w) => pad(w.year % 100),
  m: (w) => pad(w.month),
  d: (w) => pad(w.day),
  e: (w) => String(w.day),
  H: (w) => pad(w.hour),
  I: (w) => pad(w.hour % 12 === 0 ? 12 : w.hour % 12),
  M: (w) => pad(w.minute),
  S: (w) => pad(w.second),
  p: (w) => (w.hour < 12 ? "AM" : "PM"),
  A: (w) => weekdayName(w),
  a: (w) => weekdayName(w).slice(0, 3),
  B: (w) => MONTHS[w.month - 1]!,
  b: (w) => MONTHS[w.month - 1]!.slice(0, 3),
  j: (w) => pad(dayOfYear(w), 3),
  z: (_w, offset) => offsetText(offset, ""),
  Z: (_w, _offset, timeZone) => timeZone,
  "%": () => "%",
};

export const STRFTIME_DIRECTIVES = Object.keys(DIRECTIVES)
  .filter((key) => key !== "%")
  .map((key) => `%${key}`);

/** strftime-style formatting (%Y-%m-%d %H:%M:%S, %A, %B …); an unknown directive is a tool error. */
export function formatWall(wall: WallTime, pattern: string, offset = 0, timeZone = "UTC"): string {
  return pattern.replace(/%(.?)/g, (_match, key: string) => {
    const directive = DIRECTIVES[key];
    if (!directive) {
      throw new ToolError(
        "invalid_format",
        `Unsupported format directive "%${key}" in "${pattern}"; supported: ${STRFTIME_DIRECTIVES.join(" ")} %%`,
      );
    }
    return directive(wall, offset, timeZone);
  });
}
