import { pristineState } from "../kit/pristine.ts";
import calendarsFixture from "./fixtures/calendars.json" with { type: "json" };
import eventsFixture from "./fixtures/events.json" with { type: "json" };

export interface Account {
  id: string;
  email: string;
  displayName: string;
}

export interface CalendarInfo {
  id: string;
  summary: string;
  description: string;
  timeZone: string;
  accessRole: "owner" | "writer" | "reader" | "freeBusyReader";
  primary: boolean;
  colorId: string;
  backgroundColor: string;
  foregroundColor: string;
  defaultReminders: { method: string; minutes: number }[];
}

export interface Person {
  email: string;
  displayName?: string;
}

export interface Attendee {
  email: string;
  displayName?: string;
  responseStatus: "needsAction" | "declined" | "tentative" | "accepted";
  optional?: boolean;
  organizer?: boolean;
  comment?: string;
  additionalGuests?: number;
}

/** A start or end: `dateTime` is stored as a UTC instant ("…Z"); `timeZone` is the zone it was given in. */
export interface EventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}

/** The fields one instance of a recurring series can override (modificationScope thisEventOnly). */
export interface EventPatch {
  summary?: string;
  description?: string;
  location?: string;
  start?: EventTime;
  end?: EventTime;
  attendees?: Attendee[];
  options?: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  calendarId: string;
  summary: string;
  description?: string;
  location?: string;
  start: EventTime;
  end: EventTime;
  status: "confirmed" | "cancelled";
  created: string;
  updated: string;
  sequence: number;
  creator: Person;
  organizer: Person;
  attendees?: Attendee[];
  recurrence?: string[];
  /** Instance IDs of a series that were deleted one by one. */
  exdates: string[];
  /** Per-instance changes of a series, by instance ID. */
  overrides: Record<string, EventPatch>;
  /** Everything else the API carries through as-is: colorId, transparency, visibility, eventType, reminders … */
  options: Record<string, unknown>;
}

export interface CalendarState {
  account: Account;
  calendars: CalendarInfo[];
  events: StoredEvent[];
  /** Counter behind new event IDs. */
  counter: number;
}

interface FixtureEvent {
  id: string;
  calendarId: string;
  summary: string;
  start: string;
  end: string;
  organizer: string;
  created: string;
  attendees?: Attendee[];
  recurrence?: string[];
  description?: string;
  location?: string;
  conference?: boolean;
  [option: string]: unknown;
}

const CORE_FIXTURE_KEYS = new Set([
  "id",
  "calendarId",
  "summary",
  "start",
  "end",
  "organizer",
  "created",
  "attendees",
  "recurrence",
  "description",
  "location",
  "conference",
]);

export function meetLink(eventId: string): string {
  const letters = eventId.replace(/[^a-z]/g, "").padEnd(10, "x");
  return `https://meet.google.com/${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7, 10)}`;
}

function fixtureTime(value: string, zone: string): EventTime {
  return value.length === 10 ? { date: value } : { dateTime: value, timeZone: zone };
}

function organizerOf(handle: string, calendars: CalendarInfo[]): Person {
  if (handle === "holidays")
    return { email: calendars.find((c) => c.id.includes("#holiday"))!.id, displayName: "Holidays in United States" };
  return { email: `${handle}@acme.dev` };
}

function buildCalendarState(): CalendarState {
  const calendars = structuredClone(calendarsFixture.calendars) as CalendarInfo[];
  const events = (eventsFixture as FixtureEvent[]).map((fixture): StoredEvent => {
    const zone = calendars.find((calendar) => calendar.id === fixture.calendarId)?.timeZone ?? "UTC";
    const options: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fixture))
      if (!CORE_FIXTURE_KEYS.has(key)) options[key] = structuredClone(value);
    if (fixture.conference) options.hangoutLink = meetLink(fixture.id);
    const organizer = organizerOf(fixture.organizer, calendars);
    const event: StoredEvent = {
      id: fixture.id,
      calendarId: fixture.calendarId,
      summary: fixture.summary,
      start: fixtureTime(fixture.start, zone),
      end: fixtureTime(fixture.end, zone),
      status: "confirmed",
      created: fixture.created,
      updated: fixture.created,
      sequence: 0,
      creator: organizer,
      organizer,
      exdates: [],
      overrides: {},
      options,
    };
    if (fixture.description !== undefined) event.description = fixture.description;
    if (fixture.location !== undefined) event.location = fixture.location;
    if (fixture.attendees) event.attendees = structuredClone(fixture.attendees);
    if (fixture.recurrence) event.recurrence = [...fixture.recurrence];
    return event;
  });
  return { account: { ...calendarsFixture.account }, calendars, events, counter: 0 };
}

/** A fresh calendar account from the fixtures: built once, copied on every later call (a reset). */
export const createCalendarState: () => CalendarState = pristineState(buildCalendarState);
