import { ToolError } from "../kit/errors.ts";
import type { CalendarInfo, CalendarState } from "./state.ts";

export function primaryCalendar(state: CalendarState): CalendarInfo {
  return state.calendars.find((calendar) => calendar.primary)!;
}

/** A calendar by "primary", ID or name (nspady accepts names too). */
export function resolveCalendar(state: CalendarState, ref: string): CalendarInfo {
  const wanted = ref.trim();
  if (wanted === "primary") return primaryCalendar(state);
  const found =
    state.calendars.find((calendar) => calendar.id === wanted) ??
    state.calendars.find((calendar) => calendar.summary.toLowerCase() === wanted.toLowerCase());
  if (found) return found;
  throw new ToolError(
    "not_found",
    `Calendar "${ref}" not found. Available calendars: ${state.calendars.map((c) => `${c.summary} (${c.id})`).join(", ")}. Use list-calendars to see them.`,
  );
}

/** calendarId of the read tools: one ID/name, an array, or a JSON-encoded array. */
export function resolveCalendars(state: CalendarState, value: unknown): CalendarInfo[] {
  let refs: unknown = value;
  if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      refs = JSON.parse(value);
    } catch {
      throw new ToolError("invalid_argument", `calendarId "${value}" is not a valid JSON array of calendar IDs`);
    }
  }
  const list = (Array.isArray(refs) ? refs : [refs]).map(String);
  if (list.length === 0 || list.length > 50)
    throw new ToolError("invalid_argument", "calendarId must name 1 to 50 calendars");
  return [
    ...new Map(list.map((ref) => resolveCalendar(state, ref)).map((calendar) => [calendar.id, calendar])).values(),
  ];
}

export function requireEventReader(calendar: CalendarInfo): CalendarInfo {
  if (calendar.accessRole !== "freeBusyReader") return calendar;
  throw new ToolError(
    "forbidden",
    `You only have free/busy access to ${calendar.id}; event details are not visible. Use get-freebusy to see when it is busy.`,
  );
}

export function requireWriter(calendar: CalendarInfo): CalendarInfo {
  if (calendar.accessRole === "owner" || calendar.accessRole === "writer") return calendar;
  throw new ToolError(
    "forbidden",
    `You need to have writer access to this calendar (${calendar.summary}, ${calendar.id}).`,
  );
}

/** The `account` parameter: the one connected account is "normal" (nspady's default nickname). */
export function requireAccount(state: CalendarState, value: unknown): void {
  if (value === undefined) return;
  for (const account of Array.isArray(value) ? value : [value]) {
    if (account !== state.account.id) {
      throw new ToolError(
        "account_not_found",
        `Account "${String(account)}" is not connected. Available accounts: ${state.account.id}`,
      );
    }
  }
}
