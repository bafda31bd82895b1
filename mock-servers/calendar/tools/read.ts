import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import {
  primaryCalendar,
  requireAccount,
  requireEventReader,
  resolveCalendar,
  resolveCalendars,
} from "../calendars.ts";
import {
  busyInstances,
  calendarInstances,
  findInstance,
  type Instance,
  mergeIntervals,
  renderEvent,
} from "../events.ts";
import colorsFixture from "../fixtures/colors.json" with { type: "json" };
import {
  calendarIdParam,
  extendedPropertyFilter,
  fieldsParam,
  multiCalendarId,
  readAccount,
  structuredEvent,
  timeParam,
  timeZoneParam,
  writeAccount,
} from "../schemas.ts";
import type { CalendarState } from "../state.ts";
import { dayOfWeek, formatInZone, formatOffset, offsetMinutes, parseInstant, requireTimeZone } from "../time.ts";

const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 90;

export const listCalendars: ToolSpec<CalendarState> = {
  name: "list-calendars",
  description: "List all available calendars",
  inputSchema: { type: "object", properties: { account: readAccount } },
  outputSchema: {
    type: "object",
    properties: {
      calendars: { type: "array", items: { type: "object", required: ["id", "summary", "accessRole"] } },
      totalCount: { type: "integer" },
    },
    required: ["calendars", "totalCount"],
  },
  annotations: { title: "List calendars", readOnlyHint: true },
  handler: (args, { state }) => {
    requireAccount(state, args.account);
    return { calendars: structuredClone(state.calendars), totalCount: state.calendars.length };
  },
};

interface Window {
  min: number;
  max: number;
  zone: string;
}

/** timeMin/timeMax/timeZone of a read: local times are read in timeZone (or the first calendar's zone). */
function readWindow(args: Record<string, unknown>, fallbackZone: string, now: Date, required: boolean): Window {
  const zone = args.timeZone === undefined ? fallbackZone : requireTimeZone(String(args.timeZone));
  if (required && (args.timeMin === undefined || args.timeMax === undefined)) {
    throw new ToolError("invalid_argument", "timeMin and timeMax are required");
  }
  const min = args.timeMin === undefined ? now.getTime() : parseInstant(String(args.timeMin), zone, "timeMin");
  const max =
    args.timeMax === undefined
      ? min + DEFAULT_WINDOW_DAYS * DAY_MS
      : parseInstant(String(args.timeMax), zone, "timeMax");
  if (max <= min) throw new ToolError("invalid_argument", "timeMax must be after timeMin");
  return { min, max, zone };
}

function matchesExtended(instance: Instance, kind: "private" | "shared", filters: unknown): boolean {
  const wanted = (filters as string[] | undefined) ?? [];
  const extended = instance.view.options.extendedProperties as Record<string, Record<string, string>> | undefined;
  const props = extended?.[kind] ?? {};
  return wanted.every((pair) => {
    const [key, value] = pair.split("=");
    return props[key!] === value;
  });
}

/** The events of the named calendars in a window, rendered; shared by list-events and search-events. */
function readEvents(
  state: CalendarState,
  args: Record<string, unknown>,
  now: Date,
  required: boolean,
  keep: (instance: Instance) => boolean,
) {
  requireAccount(state, args.account);
  const calendars = resolveCalendars(state, args.calendarId).map(requireEventReader);
  const window = readWindow(args, calendars[0]!.timeZone, now, required);
  const instances = calendars
    .flatMap((calendar) => calendarInstances(state, calendar, window.min, window.max))
    .filter(
      (instance) =>
        keep(instance) &&
        matchesExtended(instance, "private", args.privateExtendedProperty) &&
        matchesExtended(instance, "shared", args.sharedExtendedProperty),
    )
    .sort((a, b) => a.startMs - b.startMs);
  const zone = args.timeZone === undefined ? undefined : window.zone;
  return {
    calendars,
    window,
    events: instances.map((instance) => renderEvent(state, instance, zone)),
  };
}

const readEventsInput = {
  calendarId: multiCalendarId,
  account: readAccount,
  timeZone: timeZoneParam,
  fields: fieldsParam,
  privateExtendedProperty: extendedPropertyFilter("private"),
  sharedExtendedProperty: extendedPropertyFilter("shared"),
};

export const listEvents: ToolSpec<CalendarState> = {
  name: "list-events",
  description:
    "List events from one or more calendars. Without timeMin the list starts now; without timeMax it covers 90 days. Recurring events are expanded into instances.",
  inputSchema: {
    type: "object",
    properties: {
      ...readEventsInput,
      timeMin: timeParam("Start of the time range"),
      timeMax: timeParam("End of the time range"),
    },
    required: ["calendarId"],
  },
  outputSchema: {
    type: "object",
    properties: {
      events: { type: "array", items: structuredEvent },
      totalCount: { type: "integer" },
      calendars: { type: "array", items: { type: "string" } },
    },
    required: ["events", "totalCount"],
  },
  annotations: { title: "List events", readOnlyHint: true },
  handler: (args, { state, now }) => {
    const { calendars, events } = readEvents(state, args, now, false, () => true);
    return {
      events,
      totalCount: events.length,
      ...(calendars.length > 1 ? { calendars: calendars.map((c) => c.id) } : {}),
    };
  },
};

function haystack(instance: Instance): string {
  const event = instance.view;
  const people = (event.attendees ?? []).flatMap((attendee) => [attendee.email, attendee.displayName ?? ""]);
  return [event.summary, event.description ?? "", event.location ?? "", ...people].join(" ").toLowerCase();
}

export const searchEvents: ToolSpec<CalendarState> = {
  name: "search-events",
  description: "Search for events in a calendar by text query.",
  inputSchema: {
    type: "object",
    properties: {
      ...readEventsInput,
      query: {
        type: "string",
        description: "Free text search query (searches summary, description, location, attendees, etc.)",
      },
      timeMin: timeParam("Start of the time range (required)"),
      timeMax: timeParam("End of the time range (required)"),
    },
    required: ["calendarId", "query", "timeMin", "timeMax"],
  },
  outputSchema: {
    type: "object",
    properties: {
      events: { type: "array", items: structuredEvent },
      totalCount: { type: "integer" },
      query: { type: "string" },
      timeRange: { type: "object", required: ["start", "end"] },
    },
    required: ["events", "totalCount", "query"],
  },
  annotations: { title: "Search events", readOnlyHint: true },
  handler: (args, { state, now }) => {
    const words = String(args.query).toLowerCase().split(/\s+/).filter(Boolean);
    const { calendars, window, events } = readEvents(state, args, now, true, (instance) => {
      const text = haystack(instance);
      return words.every((word) => text.includes(word));
    });
    return {
      events,
      totalCount: events.length,
      query: String(args.query),
      ...(calendars.length > 1 ? { calendars: calendars.map((c) => c.id) } : { calendarId: calendars[0]!.id }),
      timeRange: { start: formatInZone(window.min, window.zone), end: formatInZone(window.max, window.zone) },
    };
  },
};

export const getEvent: ToolSpec<CalendarState> = {
  name: "get-event",
  description: "Get details of a specific event by ID.",
  inputSchema: {
    type: "object",
    properties: {
      calendarId: calendarIdParam("containing the event"),
      eventId: { type: "string", description: "ID of the event to retrieve" },
      account: readAccount,
      fields: fieldsParam,
    },
    required: ["calendarId", "eventId"],
  },
  outputSchema: { type: "object", properties: { event: structuredEvent }, required: ["event"] },
  annotations: { title: "Get event", readOnlyHint: true },
  handler: (args, { state }) => {
    requireAccount(state, args.account);
    const calendar = requireEventReader(resolveCalendar(state, String(args.calendarId)));
    return { event: renderEvent(state, findInstance(state, calendar, String(args.eventId))) };
  },
};

export const listColors: ToolSpec<CalendarState> = {
  name: "list-colors",
  description: "List available color IDs and their meanings for calendar events",
  inputSchema: { type: "object", properties: { account: readAccount } },
  outputSchema: {
    type: "object",
    properties: { event: { type: "object" }, calendar: { type: "object" } },
    required: ["event", "calendar"],
  },
  annotations: { title: "List colors", readOnlyHint: true },
  handler: (args, { state }) => {
    requireAccount(state, args.account);
    return structuredClone(colorsFixture);
  },
};

const MAX_FREEBUSY_MS = 92 * DAY_MS;

export const getFreeBusy: ToolSpec<CalendarState> = {
  name: "get-freebusy",
  description:
    "Query free/busy information for calendars. Note: Time range is limited to a maximum of 3 months between timeMin and timeMax.",
  inputSchema: {
    type: "object",
    properties: {
      calendars: {
        type: "array",
        description: "List of calendars and/or groups to query for free/busy information",
        items: {
          type: "object",
          properties: {
            id: { type: "string", description: "ID of the calendar (use 'primary' for the main calendar)" },
          },
          required: ["id"],
        },
      },
      timeMin: timeParam("Start time boundary"),
      timeMax: timeParam("End time boundary"),
      timeZone: { type: "string", description: "Timezone for the query" },
      groupExpansionMax: {
        type: "integer",
        maximum: 100,
        description: "Maximum number of calendars to expand per group (max 100)",
      },
      calendarExpansionMax: {
        type: "integer",
        maximum: 50,
        description: "Maximum number of calendars to expand (max 50)",
      },
      account: readAccount,
    },
    required: ["calendars", "timeMin", "timeMax"],
  },
  outputSchema: {
    type: "object",
    properties: {
      timeMin: { type: "string" },
      timeMax: { type: "string" },
      calendars: {
        type: "object",
        additionalProperties: {
          type: "object",
          properties: {
            busy: { type: "array", items: { type: "object", required: ["start", "end"] } },
            errors: { type: "array" },
          },
          required: ["busy"],
        },
      },
    },
    required: ["timeMin", "timeMax", "calendars"],
  },
  annotations: { title: "Get free/busy", readOnlyHint: true },
  handler: (args, { state, now }) => {
    requireAccount(state, args.account);
    const primary = primaryCalendar(state);
    const window = readWindow(args, primary.timeZone, now, true);
    if (window.max - window.min > MAX_FREEBUSY_MS) {
      throw new ToolError("invalid_argument", "The time range between timeMin and timeMax must not exceed 3 months");
    }
    const zone = args.timeZone === undefined ? "UTC" : window.zone;
    const result: Record<string, unknown> = {};
    for (const { id } of args.calendars as { id: string }[]) {
      const calendar = id === "primary" ? primary : state.calendars.find((candidate) => candidate.id === id);
      if (!calendar) {
        result[id] = { busy: [], errors: [{ domain: "global", reason: "notFound" }] };
        continue;
      }
      const busy = mergeIntervals(busyInstances(state, calendar, window.min, window.max), window.min, window.max);
      result[id] = {
        busy: busy.map(([start, end]) => ({ start: formatInZone(start, zone), end: formatInZone(end, zone) })),
      };
    }
    return { timeMin: formatInZone(window.min, zone), timeMax: formatInZone(window.max, zone), calendars: result };
  },
};

export const getCurrentTime: ToolSpec<CalendarState> = {
  name: "get-current-time",
  description:
    "Get the current date and time. Call this FIRST before creating, updating, or searching for events to ensure you have accurate date context for scheduling.",
  inputSchema: {
    type: "object",
    properties: {
      account: writeAccount,
      timeZone: {
        type: "string",
        description:
          "Optional IANA timezone (e.g., 'America/Los_Angeles', 'Europe/London', 'UTC'). If not provided, uses the primary Google Calendar's default timezone.",
      },
    },
  },
  outputSchema: {
    type: "object",
    properties: {
      currentTime: { type: "string" },
      timezone: { type: "string" },
      offset: { type: "string" },
      isDST: { type: "boolean" },
      dayOfWeek: { type: "string" },
    },
    required: ["currentTime", "timezone", "offset", "dayOfWeek"],
  },
  annotations: { title: "Get current time", readOnlyHint: true },
  handler: (args, { state, now }) => {
    requireAccount(state, args.account);
    const zone = args.timeZone === undefined ? primaryCalendar(state).timeZone : requireTimeZone(String(args.timeZone));
    const ms = now.getTime();
    const offset = offsetMinutes(ms, zone);
    const january = offsetMinutes(Date.UTC(new Date(ms).getUTCFullYear(), 0, 1), zone);
    const july = offsetMinutes(Date.UTC(new Date(ms).getUTCFullYear(), 6, 1), zone);
    return {
      currentTime: formatInZone(ms, zone),
      timezone: zone,
      offset: formatOffset(offset),
      isDST: january !== july && offset === Math.max(january, july),
      dayOfWeek: dayOfWeek(ms, zone),
    };
  },
};
