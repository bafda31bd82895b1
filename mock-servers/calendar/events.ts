import { BoundedCache } from "../../src/memo.ts";
import { ToolError } from "../kit/errors.ts";
import { seriesStarts } from "./recurrence.ts";
import type { Attendee, CalendarInfo, CalendarState, EventPatch, EventTime, StoredEvent } from "./state.ts";
import { addDays, dayOfWeek, formatInZone, startOfDate } from "./time.ts";

const HOUR_MS = 3_600_000;

/** One occurrence of an event in time: a single event is its own instance; a series has many. */
export interface Instance {
  id: string;
  base: StoredEvent;
  /** The instance's fields after per-instance overrides. */
  view: StoredEvent;
  startMs: number;
  endMs: number;
  allDay: boolean;
  originalStart?: EventTime;
}

function span(event: Pick<StoredEvent, "start" | "end">, zone: string): [number, number, boolean] {
  if (event.start.date)
    return [
      startOfDate(event.start.date, zone),
      startOfDate(event.end.date ?? addDays(event.start.date, 1), zone),
      true,
    ];
  return [Date.parse(event.start.dateTime!), Date.parse(event.end.dateTime!), false];
}

// Instance-ID stamps by instant: a lookup by instance ID stamps every start of a series, on every call.
const dateStamps = new BoundedCache<number, string>(8192);
const timeStamps = new BoundedCache<number, string>(8192);

function stamp(ms: number, allDay: boolean): string {
  if (allDay) return dateStamps.get(ms, () => new Date(ms).toISOString().slice(0, 10).replaceAll("-", ""));
  return timeStamps.get(ms, () => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`);
}

export function applyPatch(event: StoredEvent, patch: EventPatch | undefined): StoredEvent {
  if (!patch) return event;
  return { ...event, ...patch, options: { ...event.options, ...(patch.options ?? {}) } };
}

/** A later per-instance patch on top of an earlier one. */
export function mergePatch(earlier: EventPatch | undefined, later: EventPatch): EventPatch {
  return { ...earlier, ...later, options: { ...earlier?.options, ...later.options } };
}

/**
 * Instances of one event overlapping [min, max) (Google: end after timeMin, start before timeMax).
 * With `onlyId`, just the instances with that ID (a lookup in a long series builds no other instance).
 */
export function expandEvent(event: StoredEvent, zone: string, min: number, max: number, onlyId?: string): Instance[] {
  if (event.status === "cancelled") return [];
  const [start, end, allDay] = span(event, zone);
  const starts = event.recurrence ? seriesStarts(event.recurrence, start, max) : undefined;
  if (!starts)
    return end > min && start < max && (onlyId === undefined || onlyId === event.id)
      ? [{ id: event.id, base: event, view: event, startMs: start, endMs: end, allDay }]
      : [];
  const duration = end - start;
  // A timed instance nobody moved spans exactly [at, at + duration): one that ends before the window can be
  // skipped unbuilt (a series reaches back months before a typical window).
  const unmoved = !allDay && Object.keys(event.overrides).length === 0;
  const instances: Instance[] = [];
  for (const at of starts) {
    if (unmoved && at + duration <= min) continue;
    const id = `${event.id}_${stamp(at, allDay)}`;
    if ((onlyId !== undefined && id !== onlyId) || event.exdates.includes(id)) continue;
    const originalStart: EventTime = allDay
      ? { date: new Date(at).toISOString().slice(0, 10) }
      : { dateTime: new Date(at).toISOString().replace(".000", ""), timeZone: event.start.timeZone };
    const moved: EventPatch = allDay
      ? { start: originalStart, end: { date: new Date(at + duration).toISOString().slice(0, 10) } }
      : {
          start: originalStart,
          end: { dateTime: new Date(at + duration).toISOString().replace(".000", ""), timeZone: event.end.timeZone },
        };
    const view = applyPatch(applyPatch({ ...event, recurrence: undefined }, moved), event.overrides[id]);
    const [s, e] = span(view, zone);
    if (e > min && s < max) instances.push({ id, base: event, view, startMs: s, endMs: e, allDay, originalStart });
  }
  return instances;
}

/** Events of a calendar as instances in a window, ordered by start time. */
export function calendarInstances(state: CalendarState, calendar: CalendarInfo, min: number, max: number): Instance[] {
  return state.events
    .filter((event) => event.calendarId === calendar.id)
    .flatMap((event) => expandEvent(event, calendar.timeZone, min, max))
    .sort((a, b) => a.startMs - b.startMs || a.view.summary.localeCompare(b.view.summary));
}

export function calendarOf(state: CalendarState, event: StoredEvent): CalendarInfo {
  return state.calendars.find((calendar) => calendar.id === event.calendarId)!;
}

const SERIES_WINDOW: [number, number] = [Date.parse("2020-01-01T00:00:00Z"), Date.parse("2030-01-01T00:00:00Z")];

/** An event or a series instance by ID ("<series>_<YYYYMMDDTHHMMSSZ>"); cancelled or missing → not_found. */
export function findInstance(state: CalendarState, calendar: CalendarInfo, eventId: string): Instance {
  const notFound = () =>
    new ToolError("not_found", `Event with ID '${eventId}' not found in calendar '${calendar.id}'.`);
  // A series split by thisAndFollowing is "<id>_R<stamp>", so the owner is the longest event ID the argument starts with.
  const event = state.events
    .filter(
      (candidate) =>
        candidate.calendarId === calendar.id && (candidate.id === eventId || eventId.startsWith(`${candidate.id}_`)),
    )
    .sort((a, b) => b.id.length - a.id.length)[0];
  if (!event || event.status === "cancelled") throw notFound();
  if (eventId === event.id) {
    const [start, end, allDay] = span(event, calendar.timeZone);
    return { id: event.id, base: event, view: event, startMs: start, endMs: end, allDay };
  }
  const instance = expandEvent(event, calendar.timeZone, ...SERIES_WINDOW, eventId)[0];
  if (!instance) throw notFound();
  return instance;
}

/** The instance of a series that starts at a given original start instant. */
export function instanceAt(calendar: CalendarInfo, event: StoredEvent, startMs: number): Instance | undefined {
  return expandEvent(event, calendar.timeZone, startMs, startMs + 1).find((instance) => instance.startMs === startMs);
}

function isSelf(state: CalendarState, email: string): boolean {
  return email.toLowerCase() === state.account.email;
}

/** Drops undefined fields so results match their schemas exactly (and JSON stays clean). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  // A loop, not Object.fromEntries(entries.filter): this runs for every field of every rendered event.
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field === undefined) continue;
    // An own "__proto__" (it can arrive in request JSON) must stay a field, as fromEntries kept it.
    if (key === "__proto__")
      Object.defineProperty(kept, key, { value: field, enumerable: true, writable: true, configurable: true });
    else kept[key] = field;
  }
  return kept as T;
}

function renderTime(time: EventTime, zone: string | undefined): Record<string, unknown> {
  if (time.date) return { date: time.date };
  const tz = zone ?? time.timeZone ?? "UTC";
  return { dateTime: formatInZone(Date.parse(time.dateTime!), tz), timeZone: tz };
}

export function htmlLink(eventId: string, calendarId: string): string {
  return `https://www.google.com/calendar/event?eid=${Buffer.from(`${eventId} ${calendarId}`).toString("base64url")}`;
}

/** nspady's StructuredEvent for an instance, times shown in `zone` (the request's timeZone) or the event's own. */
export function renderEvent(state: CalendarState, instance: Instance, zone?: string): Record<string, unknown> {
  const event = instance.view;
  const calendar = calendarOf(state, instance.base);
  const tz = zone ?? event.start.timeZone ?? calendar.timeZone;
  const person = (p: { email: string; displayName?: string }) =>
    compact({ ...p, self: isSelf(state, p.email) || undefined });
  return compact({
    id: instance.id,
    summary: event.summary,
    description: event.description,
    location: event.location,
    start: renderTime(event.start, zone),
    end: renderTime(event.end, zone),
    startDayOfWeek: dayOfWeek(instance.startMs, instance.allDay ? calendar.timeZone : tz),
    endDayOfWeek: dayOfWeek(
      instance.allDay ? instance.endMs - 1 : instance.endMs,
      instance.allDay ? calendar.timeZone : tz,
    ),
    status: event.status,
    htmlLink: htmlLink(instance.id, calendar.id),
    created: event.created,
    updated: event.updated,
    creator: person(event.creator),
    organizer: person(event.organizer),
    attendees: event.attendees?.map((attendee) =>
      compact({ ...attendee, self: isSelf(state, attendee.email) || undefined }),
    ),
    recurrence: instance.id === instance.base.id ? event.recurrence : undefined,
    recurringEventId: instance.id === instance.base.id ? undefined : instance.base.id,
    originalStartTime: instance.originalStart,
    iCalUID: `${instance.base.id}@google.com`,
    sequence: event.sequence,
    eventType: "default",
    ...event.options,
    calendarId: calendar.id,
    accountId: state.account.id,
  });
}

/** Whether an instance makes its calendar busy: confirmed, opaque, and not declined by the person in question. */
function blocks(instance: Instance, email?: string): boolean {
  if (instance.view.options.transparency === "transparent") return false;
  if (instance.allDay && instance.view.options.transparency !== "opaque") return false; // all-day events default to "free"
  const attendee = email ? instance.view.attendees?.find((a) => a.email.toLowerCase() === email) : undefined;
  return attendee?.responseStatus !== "declined";
}

/**
 * Busy instances of a calendar: its own events, plus — for a person's calendar (an email ID) — every event on
 * another calendar that person attends and has not declined.
 */
export function busyInstances(state: CalendarState, calendar: CalendarInfo, min: number, max: number): Instance[] {
  const person =
    calendar.id.includes("@") && !calendar.id.includes("calendar.google.com") ? calendar.id.toLowerCase() : undefined;
  const own = calendarInstances(state, calendar, min, max).filter((instance) => blocks(instance, person));
  if (!person) return own;
  const invited = state.calendars
    .filter((other) => other.id !== calendar.id)
    .flatMap((other) => calendarInstances(state, other, min, max))
    .filter(
      (instance) => instance.view.attendees?.some((a) => a.email.toLowerCase() === person) && blocks(instance, person),
    );
  return [...own, ...invited].sort((a, b) => a.startMs - b.startMs);
}

export function mergeIntervals(instances: Instance[], min: number, max: number): [number, number][] {
  const merged: [number, number][] = [];
  for (const { startMs, endMs } of [...instances].sort((a, b) => a.startMs - b.startMs)) {
    const start = Math.max(startMs, min);
    const end = Math.min(endMs, max);
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function describeDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.floor(ms / HOUR_MS);
  const rest = minutes - hours * 60;
  return `${hours} hour${hours === 1 ? "" : "s"}${rest ? ` ${rest} minutes` : ""}`;
}

/** nspady's ConflictInfo for busy events overlapping [start, end) on the given calendars. */
export function findConflicts(
  state: CalendarState,
  calendars: CalendarInfo[],
  start: number,
  end: number,
  ignoreId?: string,
): Record<string, unknown>[] {
  return calendars.flatMap((calendar) =>
    busyInstances(state, calendar, start, end)
      .filter((instance) => instance.base.id !== ignoreId && !instance.allDay)
      .map((instance) => {
        const overlap = Math.min(end, instance.endMs) - Math.max(start, instance.startMs);
        return {
          event: {
            id: instance.id,
            title: instance.view.summary,
            start: formatInZone(instance.startMs, calendar.timeZone),
            end: formatInZone(instance.endMs, calendar.timeZone),
            url: htmlLink(instance.id, calendar.id),
          },
          calendar: calendar.id,
          overlap: {
            duration: describeDuration(overlap),
            percentage: `${Math.round((overlap / (end - start)) * 100)}%`,
          },
        };
      }),
  );
}

export function selfAttendee(state: CalendarState, event: StoredEvent): Attendee | undefined {
  return event.attendees?.find((attendee) => isSelf(state, attendee.email));
}
