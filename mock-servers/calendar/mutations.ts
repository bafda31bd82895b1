import { createHash } from "node:crypto";
import { ToolError } from "../kit/errors.ts";
import { findConflicts } from "./events.ts";
import { parseRule } from "./recurrence.ts";
import {
  type Attendee,
  type CalendarInfo,
  type CalendarState,
  type EventTime,
  meetLink,
  type StoredEvent,
} from "./state.ts";
import { parseTimeInput, requireTimeZone, type TimeInput } from "./time.ts";

/** Shared by create-event, create-events and update-event: reading request fields into stored form. */

const BASE32HEX = "0123456789abcdefghijklmnopqrstuv";
const EVENT_ID = /^[a-v0-9]{5,1024}$/;

export function nextEventId(state: CalendarState): string {
  state.counter += 1;
  const digest = createHash("sha1").update(`acme-calendar:new:${state.counter}`).digest();
  return [...digest].map((byte) => BASE32HEX[byte % 32]).join("");
}

export function requireNewEventId(state: CalendarState, id: string): string {
  if (!EVENT_ID.test(id)) {
    throw new ToolError(
      "invalid_argument",
      `Invalid event ID "${id}": use 5-1024 characters from base32hex (lowercase a-v and digits 0-9)`,
    );
  }
  if (state.events.some((event) => event.id === id))
    throw new ToolError("duplicate", "The requested identifier already exists.");
  return id;
}

export function toEventTime(input: TimeInput): EventTime {
  return "date" in input
    ? { date: input.date }
    : { dateTime: new Date(input.instant).toISOString().replace(".000", ""), timeZone: input.timeZone };
}

export function eventZone(args: Record<string, unknown>, calendar: CalendarInfo): string {
  return args.timeZone === undefined ? calendar.timeZone : requireTimeZone(String(args.timeZone));
}

/** Both ends all-day or both timed, and the end after the start (Google: "The specified time range is empty."). */
export function requireRange(start: EventTime, end: EventTime): void {
  if (Boolean(start.date) !== Boolean(end.date)) {
    throw new ToolError("invalid_argument", "start and end must both be dates (all-day event) or both date-times");
  }
  const from = start.date ?? start.dateTime!;
  const to = end.date ?? end.dateTime!;
  if (Date.parse(to) <= Date.parse(from)) {
    throw new ToolError(
      "invalid_argument",
      `The specified time range is empty: end (${to}) must be after start (${from}).`,
    );
  }
}

export function parseRange(args: Record<string, unknown>, zone: string): { start: EventTime; end: EventTime } {
  const start = toEventTime(parseTimeInput(String(args.start), zone, "start"));
  const end = toEventTime(parseTimeInput(String(args.end), zone, "end"));
  requireRange(start, end);
  return { start, end };
}

/** Request attendees; people already on the event keep their response. */
export function parseAttendees(input: unknown, existing: Attendee[] = []): Attendee[] {
  return (input as Partial<Attendee>[]).map((attendee) => {
    const email = String(attendee.email).toLowerCase();
    const known = existing.find((candidate) => candidate.email.toLowerCase() === email);
    const fields = Object.fromEntries(Object.entries(attendee).filter(([, value]) => value !== undefined));
    return { ...(known ?? { responseStatus: "needsAction" as const }), ...fields, email } as Attendee;
  });
}

export function validateRecurrence(lines: unknown): string[] {
  const recurrence = (lines as string[]).map(String);
  parseRule(recurrence);
  if (!recurrence.some((line) => line.startsWith("RRULE:"))) {
    throw new ToolError(
      "invalid_recurrence",
      `recurrence needs an RRULE line such as "RRULE:FREQ=WEEKLY;BYDAY=MO", got ${JSON.stringify(recurrence)}`,
    );
  }
  return recurrence;
}

const PASSTHROUGH = [
  "reminders",
  "transparency",
  "visibility",
  "guestsCanInviteOthers",
  "guestsCanModify",
  "guestsCanSeeOtherGuests",
  "anyoneCanAddSelf",
  "extendedProperties",
  "attachments",
  "source",
  "eventType",
  "focusTimeProperties",
  "outOfOfficeProperties",
  "workingLocationProperties",
];

/** Options fields of a request (colorId checked against the palette; conferenceData becomes a Meet link). */
export function parseOptions(args: Record<string, unknown>, eventId: string): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key of PASSTHROUGH) if (args[key] !== undefined) options[key] = structuredClone(args[key]);
  if (args.colorId !== undefined) {
    const color = String(args.colorId);
    if (!/^([1-9]|1[01])$/.test(color)) {
      throw new ToolError(
        "invalid_argument",
        `Invalid colorId "${color}": event colors are "1" to "11" (see list-colors)`,
      );
    }
    options.colorId = color;
  }
  if (args.conferenceData !== undefined) {
    const link = meetLink(eventId);
    options.hangoutLink = link;
    options.conferenceData = {
      conferenceId: link.split("/").pop(),
      conferenceSolution: { key: { type: "hangoutsMeet" }, name: "Google Meet" },
      entryPoints: [{ entryPointType: "video", uri: link, label: link.replace("https://", "") }],
    };
  }
  return options;
}

/** Busy conflicts of a new or moved event on the calendars to check (default: its own). */
export function conflictsFor(
  state: CalendarState,
  calendars: CalendarInfo[],
  event: Pick<StoredEvent, "id" | "start" | "end">,
): Record<string, unknown>[] {
  if (event.start.date) return [];
  return findConflicts(state, calendars, Date.parse(event.start.dateTime!), Date.parse(event.end.dateTime!), event.id);
}

/** Events with the same title overlapping the new one: similarity 1 for the same times, 0.8 for an overlap. */
export function findDuplicates(state: CalendarState, calendar: CalendarInfo, candidate: StoredEvent) {
  const title = candidate.summary.trim().toLowerCase();
  const from = Date.parse(candidate.start.dateTime ?? candidate.start.date!);
  const to = Date.parse(candidate.end.dateTime ?? candidate.end.date!);
  return state.events
    .filter((event) => event.calendarId === calendar.id && event.status === "confirmed" && !event.recurrence)
    .filter((event) => event.summary.trim().toLowerCase() === title)
    .map((event) => {
      const start = Date.parse(event.start.dateTime ?? event.start.date!);
      const end = Date.parse(event.end.dateTime ?? event.end.date!);
      const similarity = start === from && end === to ? 1 : start < to && end > from ? 0.8 : 0;
      return { event, similarity };
    })
    .filter(({ similarity }) => similarity > 0);
}
