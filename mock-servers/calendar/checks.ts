import type { StateCheck, StateCheckResult } from "../kit/types.ts";
import { resolveCalendar } from "./calendars.ts";
import { calendarInstances, findInstance, type Instance } from "./events.ts";
import type { CalendarInfo, CalendarState } from "./state.ts";
import { parseTimeInput, startOfDate } from "./time.ts";

const DAY_MS = 86_400_000;
const WIDE: [number, number] = [Date.parse("2020-01-01T00:00:00Z"), Date.parse("2030-01-01T00:00:00Z")];

/** Checks name a calendar like the tools do ("primary", ID or name); "any" (or none, for ID lookups) means every calendar. */
function calendarsFor(state: CalendarState, ref: unknown, fallback: "primary" | "any"): CalendarInfo[] {
  const wanted = ref === undefined ? fallback : String(ref);
  return wanted === "any" ? state.calendars : [resolveCalendar(state, wanted)];
}

function locate(state: CalendarState, args: Record<string, unknown>): Instance | undefined {
  for (const calendar of calendarsFor(state, args.calendarId, "any")) {
    try {
      return findInstance(state, calendar, String(args.event_id));
    } catch {
      // not on this calendar; try the next
    }
  }
  return undefined;
}

const same = (a: unknown, b: unknown) =>
  String(a ?? "")
    .trim()
    .toLowerCase() ===
  String(b ?? "")
    .trim()
    .toLowerCase();

/** Compares an instance's field with an expected value: times as instants (or dates), attendees by email, text case-insensitively. */
function fieldMatches(instance: Instance, zone: string, field: string, value: unknown): [boolean, unknown] {
  const view = instance.view;
  if (field === "start" || field === "end") {
    const time = view[field];
    const expected = parseTimeInput(String(value), zone, field);
    if ("date" in expected) {
      const actualDate = time.date ?? time.dateTime!.slice(0, 10);
      return [actualDate === expected.date, time];
    }
    return [time.dateTime !== undefined && Date.parse(time.dateTime) === expected.instant, time];
  }
  if (field === "attendees") {
    const emails = (view.attendees ?? []).map((attendee) => attendee.email.toLowerCase());
    const wanted = (Array.isArray(value) ? value : [value]).map((email) => String(email).toLowerCase());
    return [wanted.every((email) => emails.includes(email)), emails];
  }
  const actual = field in view ? (view as unknown as Record<string, unknown>)[field] : view.options[field];
  return [same(actual, value), actual];
}

export const calendarChecks: Record<string, StateCheck<CalendarState>> = {
  /** {summary, calendarId? (default primary; "any"), start? (date or date-time), attendees? (emails)}: a live event matches. */
  event_exists: (state, args) => {
    const hits: string[] = [];
    for (const calendar of calendarsFor(state, args.calendarId, "primary")) {
      let [min, max] = WIDE;
      let exact: number | undefined;
      if (args.start !== undefined) {
        const start = parseTimeInput(String(args.start), calendar.timeZone, "start");
        if ("date" in start)
          [min, max] = [
            startOfDate(start.date, calendar.timeZone),
            startOfDate(start.date, calendar.timeZone) + DAY_MS,
          ];
        else [min, max, exact] = [start.instant, start.instant + 1, start.instant];
      }
      const wanted = ((args.attendees as string[] | undefined) ?? []).map((email) => email.toLowerCase());
      for (const instance of calendarInstances(state, calendar, min, max)) {
        if (!same(instance.view.summary, args.summary)) continue;
        if (exact !== undefined && instance.startMs !== exact) continue;
        if (args.start !== undefined && exact === undefined && instance.startMs < min) continue;
        const emails = (instance.view.attendees ?? []).map((attendee) => attendee.email.toLowerCase());
        if (wanted.every((email) => emails.includes(email))) hits.push(`${instance.id} on ${calendar.id}`);
      }
    }
    return hits.length > 0
      ? { pass: true, detail: `found ${hits.join(", ")}` }
      : {
          pass: false,
          detail: `no event "${String(args.summary)}"${args.start ? ` starting ${String(args.start)}` : ""} with the wanted attendees`,
        };
  },

  /** {event_id, calendarId?}: the event (or series instance) is gone. */
  event_deleted: (state, args) => {
    const instance = locate(state, args);
    return instance
      ? { pass: false, detail: `event ${String(args.event_id)} ("${instance.view.summary}") still exists` }
      : { pass: true, detail: `event ${String(args.event_id)} is deleted` };
  },

  /** {event_id, field, value, calendarId?}: e.g. field "start" value "2026-03-18T15:00:00Z", field "attendees" value "erin@acme.dev". */
  event_updated: (state, args): StateCheckResult => {
    const instance = locate(state, args);
    if (!instance) return { pass: false, detail: `event ${String(args.event_id)} not found` };
    const zone = state.calendars.find((calendar) => calendar.id === instance.base.calendarId)!.timeZone;
    const [pass, actual] = fieldMatches(instance, zone, String(args.field), args.value);
    return {
      pass,
      detail: `${String(args.field)} is ${JSON.stringify(actual)} (wanted ${JSON.stringify(args.value)})`,
    };
  },

  /** {event_id, response, email? (default the account's)}: the attendee's responseStatus. */
  event_response: (state, args) => {
    const instance = locate(state, args);
    if (!instance) return { pass: false, detail: `event ${String(args.event_id)} not found` };
    const email = String(args.email ?? state.account.email).toLowerCase();
    const attendee = instance.view.attendees?.find((candidate) => candidate.email.toLowerCase() === email);
    return {
      pass: attendee?.responseStatus === args.response,
      detail: `${email} responded ${attendee?.responseStatus ?? "(not invited)"} (wanted ${String(args.response)})`,
    };
  },
};
