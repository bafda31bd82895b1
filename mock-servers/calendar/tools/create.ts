import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { requireAccount, requireWriter, resolveCalendar } from "../calendars.ts";
import { findInstance, renderEvent } from "../events.ts";
import {
  conflictsFor,
  eventZone,
  findDuplicates,
  nextEventId,
  parseAttendees,
  parseOptions,
  parseRange,
  requireNewEventId,
  validateRecurrence,
} from "../mutations.ts";
import {
  attachmentsInput,
  attendeesInput,
  calendarIdParam,
  conferenceDataInput,
  conflictsOutput,
  extendedPropertiesInput,
  remindersInput,
  sendUpdatesParam,
  structuredEvent,
  timeParam,
  timeZoneParam,
  writeAccount,
} from "../schemas.ts";
import type { CalendarState, StoredEvent } from "../state.ts";

const BLOCKING_SIMILARITY = 0.95;

/** Creates one event from request fields; shared by create-event and create-events. */
function createOne(state: CalendarState, args: Record<string, unknown>, now: Date) {
  requireAccount(state, args.account);
  const calendar = requireWriter(resolveCalendar(state, String(args.calendarId ?? "primary")));
  const summary = String(args.summary ?? "").trim();
  if (!summary) throw new ToolError("invalid_argument", "summary must not be empty");
  const { start, end } = parseRange(args, eventZone(args, calendar));
  const id = args.eventId === undefined ? nextEventId(state) : requireNewEventId(state, String(args.eventId));
  const self = { email: state.account.email, displayName: state.account.displayName };
  const event: StoredEvent = {
    id,
    calendarId: calendar.id,
    summary,
    start,
    end,
    status: "confirmed",
    created: now.toISOString(),
    updated: now.toISOString(),
    sequence: 0,
    creator: self,
    organizer: calendar.primary ? self : { email: calendar.id, displayName: calendar.summary },
    exdates: [],
    overrides: {},
    options: parseOptions(args, id),
  };
  if (typeof args.description === "string") event.description = args.description;
  if (typeof args.location === "string") event.location = args.location;
  if (args.attendees !== undefined) event.attendees = parseAttendees(args.attendees);
  if (args.recurrence !== undefined) event.recurrence = validateRecurrence(args.recurrence);

  const duplicates = findDuplicates(state, calendar, event);
  const blocking = duplicates.find(({ similarity }) => similarity >= BLOCKING_SIMILARITY);
  if (blocking && args.allowDuplicates !== true) {
    throw new ToolError(
      "duplicate_event",
      `An identical event already exists: "${blocking.event.summary}" (${blocking.event.id}) at the same time. Set allowDuplicates to true to create it anyway.`,
    );
  }
  const threshold = typeof args.duplicateSimilarityThreshold === "number" ? args.duplicateSimilarityThreshold : 0.7;
  const checked = ((args.calendarsToCheck as string[] | undefined) ?? [calendar.id]).map((ref) =>
    resolveCalendar(state, ref),
  );
  const conflicts = conflictsFor(state, checked, event);
  state.events.push(event);
  const rendered = renderEvent(state, findInstance(state, calendar, event.id));
  const similar = duplicates
    .filter(({ similarity }) => similarity >= threshold)
    .map(({ event: other, similarity }) => ({
      event: {
        id: other.id,
        title: other.summary,
        start: other.start.dateTime ?? other.start.date,
        end: other.end.dateTime ?? other.end.date,
        similarity,
      },
      calendarId: calendar.id,
      suggestion: "A similar event exists at an overlapping time; check that this is not a duplicate.",
    }));
  return {
    event: rendered,
    ...(conflicts.length > 0 ? { conflicts } : {}),
    ...(similar.length > 0 ? { duplicates: similar } : {}),
  };
}

const eventInputProperties = {
  summary: { type: "string", description: "Title of the event" },
  description: { type: "string", description: "Description/notes for the event" },
  start: timeParam("Event start time"),
  end: timeParam("Event end time"),
  timeZone: timeZoneParam,
  location: { type: "string", description: "Location of the event" },
  attendees: attendeesInput(true),
  colorId: { type: "string", description: "Color ID for the event (use list-colors to see available IDs)" },
  reminders: remindersInput,
  recurrence: {
    type: "array",
    items: { type: "string" },
    description: 'Recurrence rules in RFC5545 format (e.g., ["RRULE:FREQ=WEEKLY;COUNT=5"])',
  },
  transparency: {
    type: "string",
    enum: ["opaque", "transparent"],
    description: "Whether the event blocks time on the calendar",
  },
  visibility: {
    type: "string",
    enum: ["default", "public", "private", "confidential"],
    description: "Visibility of the event",
  },
  guestsCanInviteOthers: { type: "boolean" },
  guestsCanModify: { type: "boolean" },
  guestsCanSeeOtherGuests: { type: "boolean" },
  anyoneCanAddSelf: { type: "boolean" },
  sendUpdates: sendUpdatesParam,
  conferenceData: conferenceDataInput,
};

export const createEvent: ToolSpec<CalendarState> = {
  name: "create-event",
  description:
    "Create a new calendar event. Reports conflicts with existing events and refuses exact duplicates unless allowDuplicates is set.",
  inputSchema: {
    type: "object",
    properties: {
      calendarId: calendarIdParam("to create the event in"),
      account: writeAccount,
      eventId: {
        type: "string",
        minLength: 5,
        maxLength: 1024,
        pattern: "^[a-v0-9]+$",
        description:
          "Optional custom event ID (5-1024 characters, base32hex encoding: lowercase letters a-v and digits 0-9 only).",
      },
      ...eventInputProperties,
      extendedProperties: extendedPropertiesInput,
      attachments: attachmentsInput,
      source: {
        type: "object",
        properties: { url: { type: "string", format: "uri" }, title: { type: "string" } },
        required: ["url", "title"],
      },
      calendarsToCheck: {
        type: "array",
        items: { type: "string" },
        description: "List of calendar IDs to check for conflicts (defaults to just the target calendar)",
      },
      duplicateSimilarityThreshold: {
        type: "number",
        minimum: 0,
        maximum: 1,
        description: "Threshold for duplicate detection (0-1, default: 0.7)",
      },
      allowDuplicates: {
        type: "boolean",
        description:
          "If true, allows creation even when exact duplicates are detected (similarity >= 0.95). Default: false",
      },
      eventType: { type: "string", enum: ["default", "focusTime", "outOfOffice", "workingLocation"] },
      focusTimeProperties: {
        type: "object",
        properties: {
          autoDeclineMode: {
            type: "string",
            enum: ["declineNone", "declineAllConflictingInvitations", "declineOnlyNewConflictingInvitations"],
          },
          chatStatus: { type: "string", enum: ["available", "doNotDisturb"] },
          declineMessage: { type: "string" },
        },
      },
      outOfOfficeProperties: {
        type: "object",
        properties: {
          autoDeclineMode: {
            type: "string",
            enum: ["declineNone", "declineAllConflictingInvitations", "declineOnlyNewConflictingInvitations"],
          },
          declineMessage: { type: "string" },
        },
      },
      workingLocationProperties: {
        type: "object",
        properties: {
          type: { type: "string", enum: ["homeOffice", "officeLocation", "customLocation"] },
          homeOffice: {},
          officeLocation: {
            type: "object",
            properties: {
              label: { type: "string" },
              buildingId: { type: "string" },
              floorId: { type: "string" },
              floorSectionId: { type: "string" },
              deskId: { type: "string" },
            },
          },
          customLocation: { type: "object", properties: { label: { type: "string" } } },
        },
        required: ["type"],
      },
    },
    required: ["calendarId", "summary", "start", "end"],
  },
  outputSchema: {
    type: "object",
    properties: {
      event: structuredEvent,
      conflicts: conflictsOutput,
      duplicates: { type: "array" },
      warnings: { type: "array", items: { type: "string" } },
    },
    required: ["event"],
  },
  annotations: { title: "Create event", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state, now }) => createOne(state, args, now),
};

export const createEvents: ToolSpec<CalendarState> = {
  name: "create-events",
  description:
    "Create multiple calendar events in bulk (up to 50). Each event can override the shared calendarId and timeZone.",
  inputSchema: {
    type: "object",
    properties: {
      events: {
        type: "array",
        minItems: 1,
        maxItems: 50,
        items: {
          type: "object",
          properties: { calendarId: { type: "string" }, account: writeAccount, ...eventInputProperties },
          required: ["summary", "start", "end"],
        },
      },
      account: writeAccount,
      calendarId: {
        type: "string",
        default: "primary",
        description: "Default calendar for all events (default: primary)",
      },
      timeZone: timeZoneParam,
      sendUpdates: sendUpdatesParam,
    },
    required: ["events"],
  },
  outputSchema: {
    type: "object",
    properties: {
      totalRequested: { type: "integer" },
      totalCreated: { type: "integer" },
      totalFailed: { type: "integer" },
      created: { type: "array", items: structuredEvent },
      failed: { type: "array", items: { type: "object", required: ["index", "summary", "error"] } },
    },
    required: ["totalRequested", "totalCreated", "totalFailed", "created"],
  },
  annotations: { title: "Create events", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state, now }) => {
    const items = args.events as Record<string, unknown>[];
    const created: unknown[] = [];
    const failed: { index: number; summary: string; error: string }[] = [];
    items.forEach((item, index) => {
      const request = {
        calendarId: args.calendarId ?? "primary",
        account: args.account,
        timeZone: args.timeZone,
        sendUpdates: args.sendUpdates,
        ...item,
      };
      try {
        created.push(createOne(state, request, now).event);
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        failed.push({ index, summary: String(item.summary), error: `${error.code}: ${error.message}` });
      }
    });
    return {
      totalRequested: items.length,
      totalCreated: created.length,
      totalFailed: failed.length,
      created,
      ...(failed.length > 0 ? { failed } : {}),
    };
  },
};
