import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { requireAccount, requireEventReader, requireWriter, resolveCalendar } from "../calendars.ts";
import { findInstance, type Instance, instanceAt, mergePatch, renderEvent, selfAttendee } from "../events.ts";
import {
  conflictsFor,
  parseAttendees,
  parseOptions,
  requireRange,
  toEventTime,
  validateRecurrence,
} from "../mutations.ts";
import { withUntil } from "../recurrence.ts";
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
import type { CalendarInfo, CalendarState, EventPatch, EventTime, StoredEvent } from "../state.ts";
import { addDays, parseInstant, parseTimeInput, requireTimeZone } from "../time.ts";

const DAY_MS = 86_400_000;

function shiftTime(time: EventTime, delta: number): EventTime {
  if (time.date) return { date: addDays(time.date, Math.round(delta / DAY_MS)) };
  return { ...time, dateTime: new Date(Date.parse(time.dateTime!) + delta).toISOString().replace(".000", "") };
}

const instant = (time: EventTime) => Date.parse(time.dateTime ?? `${time.date}T00:00:00Z`);

/** The fields of an update request, as a patch on the instance being edited (a lone start keeps the duration). */
function buildPatch(args: Record<string, unknown>, view: StoredEvent, zone: string): EventPatch {
  const patch: EventPatch = {};
  if (typeof args.summary === "string") patch.summary = args.summary;
  if (typeof args.description === "string") patch.description = args.description;
  if (typeof args.location === "string") patch.location = args.location;
  if (args.attendees !== undefined) patch.attendees = parseAttendees(args.attendees, view.attendees);
  if (args.start !== undefined || args.end !== undefined) {
    const start =
      args.start === undefined ? view.start : toEventTime(parseTimeInput(String(args.start), zone, "start"));
    const end =
      args.end === undefined
        ? shiftTime(view.end, instant(start) - instant(view.start))
        : toEventTime(parseTimeInput(String(args.end), zone, "end"));
    requireRange(start, end);
    patch.start = start;
    patch.end = end;
  }
  const options = parseOptions(args, view.id);
  if (Object.keys(options).length > 0) patch.options = options;
  return patch;
}

/** Applies a patch to a whole series or single event; new times move the series by the same offset. */
function applyToSeries(event: StoredEvent, target: Instance, patch: EventPatch): void {
  const { start, end, options, ...fields } = patch;
  Object.assign(event, fields);
  if (options) event.options = { ...event.options, ...options };
  if (start && end) {
    const delta = instant(start) - instant(target.view.start);
    event.start = { ...shiftTime(event.start, delta), ...(start.timeZone ? { timeZone: start.timeZone } : {}) };
    event.end = {
      ...shiftTime(event.start, instant(end) - instant(start)),
      ...(end.timeZone ? { timeZone: end.timeZone } : {}),
    };
  }
}

/** The instance an instance-scoped edit means: the instance ID itself, or the one starting at `at`. */
function pickInstance(
  calendar: CalendarInfo,
  target: Instance,
  at: unknown,
  parameter: string,
  zone: string,
): Instance {
  if (target.id !== target.base.id) return target;
  if (at === undefined) {
    throw new ToolError(
      "invalid_argument",
      `${parameter} is required for this modificationScope when eventId is the series ID`,
    );
  }
  const startMs = parseInstant(String(at), zone, parameter);
  const instance = instanceAt(calendar, target.base, startMs);
  if (!instance) throw new ToolError("not_found", `No instance of ${target.base.id} starts at ${String(at)}`);
  return instance;
}

export const updateEvent: ToolSpec<CalendarState> = {
  name: "update-event",
  description:
    "Update an existing calendar event with recurring event modification scope support (thisEventOnly, thisAndFollowing, all) and conflict detection.",
  inputSchema: {
    type: "object",
    properties: {
      calendarId: calendarIdParam("containing the event"),
      eventId: { type: "string", description: "ID of the event to update" },
      account: writeAccount,
      summary: { type: "string", description: "Updated title of the event" },
      description: { type: "string", description: "Updated description/notes" },
      start: timeParam("Updated start time"),
      end: timeParam("Updated end time"),
      timeZone: timeZoneParam,
      location: { type: "string", description: "Updated location" },
      attendees: attendeesInput(false),
      colorId: { type: "string", description: "Updated color ID" },
      reminders: remindersInput,
      recurrence: { type: "array", items: { type: "string" }, description: "Updated recurrence rules" },
      sendUpdates: { ...sendUpdatesParam, default: "all" },
      modificationScope: {
        type: "string",
        enum: ["thisAndFollowing", "all", "thisEventOnly"],
        description: "Scope for recurring event modifications",
      },
      originalStartTime: timeParam(
        "Original start time of the instance (required when modificationScope is 'thisEventOnly')",
      ),
      futureStartDate: timeParam(
        "Start date for future instances (required when modificationScope is 'thisAndFollowing')",
      ),
      checkConflicts: {
        type: "boolean",
        description: "Whether to check for conflicts when updating (default: true when changing time)",
      },
      calendarsToCheck: {
        type: "array",
        items: { type: "string" },
        description: "List of calendar IDs to check for conflicts",
      },
      conferenceData: conferenceDataInput,
      transparency: { type: "string", enum: ["opaque", "transparent"] },
      visibility: { type: "string", enum: ["default", "public", "private", "confidential"] },
      guestsCanInviteOthers: { type: "boolean" },
      guestsCanModify: { type: "boolean" },
      guestsCanSeeOtherGuests: { type: "boolean" },
      anyoneCanAddSelf: { type: "boolean" },
      extendedProperties: extendedPropertiesInput,
      attachments: attachmentsInput,
    },
    required: ["calendarId", "eventId"],
  },
  outputSchema: {
    type: "object",
    properties: { event: structuredEvent, conflicts: conflictsOutput },
    required: ["event"],
  },
  annotations: { title: "Update event", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    requireAccount(state, args.account);
    const calendar = requireWriter(resolveCalendar(state, String(args.calendarId)));
    const target = findInstance(state, calendar, String(args.eventId));
    const base = target.base;
    const scope = String(args.modificationScope ?? "all");
    if (scope !== "all" && !base.recurrence) {
      throw new ToolError(
        "invalid_argument",
        `modificationScope "${scope}" only applies to recurring events; ${base.id} is a single event`,
      );
    }
    const zone =
      args.timeZone === undefined ? (base.start.timeZone ?? calendar.timeZone) : requireTimeZone(String(args.timeZone));
    const patch = buildPatch(args, target.view, zone);
    let edited: StoredEvent = base;
    let resultId = base.id;
    if (scope === "thisEventOnly") {
      const instance = pickInstance(calendar, target, args.originalStartTime, "originalStartTime", zone);
      base.overrides[instance.id] = mergePatch(base.overrides[instance.id], patch);
      resultId = instance.id;
    } else if (scope === "thisAndFollowing") {
      const pivot = pickInstance(calendar, target, args.futureStartDate, "futureStartDate", zone);
      const stamp = pivot.id.slice(base.id.length + 1);
      edited = {
        ...structuredClone(base),
        id: `${base.id}_R${stamp}`,
        start: pivot.view.start,
        end: pivot.view.end,
        exdates: [],
        overrides: {},
      };
      base.recurrence = withUntil(base.recurrence!, pivot.startMs - 1000);
      applyToSeries(edited, { ...pivot, view: edited }, patch);
      state.events.push(edited);
      resultId = edited.id;
    } else {
      applyToSeries(base, target, patch);
      if (args.recurrence !== undefined) base.recurrence = validateRecurrence(args.recurrence);
    }
    for (const event of new Set([base, edited])) {
      event.sequence += 1;
      event.updated = now.toISOString();
    }
    const result = findInstance(state, calendar, resultId);
    const timesChanged = args.start !== undefined || args.end !== undefined;
    const checked = ((args.calendarsToCheck as string[] | undefined) ?? [calendar.id]).map((ref) =>
      resolveCalendar(state, ref),
    );
    const conflicts =
      timesChanged && args.checkConflicts !== false
        ? conflictsFor(state, checked, { id: base.id, start: result.view.start, end: result.view.end })
        : [];
    return { event: renderEvent(state, result), ...(conflicts.length > 0 ? { conflicts } : {}) };
  },
};

export const deleteEvent: ToolSpec<CalendarState> = {
  name: "delete-event",
  description: "Delete a calendar event. Deleting an instance ID of a recurring event removes only that occurrence.",
  inputSchema: {
    type: "object",
    properties: {
      calendarId: calendarIdParam("containing the event"),
      eventId: { type: "string", description: "ID of the event to delete" },
      account: writeAccount,
      sendUpdates: { ...sendUpdatesParam, default: "all", description: "Whether to send cancellation notifications" },
    },
    required: ["calendarId", "eventId"],
  },
  outputSchema: {
    type: "object",
    properties: {
      success: { type: "boolean" },
      eventId: { type: "string" },
      calendarId: { type: "string" },
      message: { type: "string" },
    },
    required: ["success", "eventId", "calendarId"],
  },
  annotations: { title: "Delete event", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    requireAccount(state, args.account);
    const calendar = requireWriter(resolveCalendar(state, String(args.calendarId)));
    const target = findInstance(state, calendar, String(args.eventId));
    if (target.id === target.base.id) target.base.status = "cancelled";
    else target.base.exdates.push(target.id);
    target.base.updated = now.toISOString();
    return { success: true, eventId: target.id, calendarId: calendar.id, message: "Event deleted successfully" };
  },
};

export const respondToEvent: ToolSpec<CalendarState> = {
  name: "respond-to-event",
  description: "Respond to a calendar event invitation with Accept, Decline, Maybe (tentative), or No Response.",
  inputSchema: {
    type: "object",
    properties: {
      calendarId: calendarIdParam("containing the event"),
      eventId: { type: "string", description: "ID of the event to respond to" },
      account: writeAccount,
      response: {
        type: "string",
        enum: ["needsAction", "declined", "tentative", "accepted"],
        description: "Your response: 'accepted', 'declined', 'tentative' (maybe), or 'needsAction' (no response)",
      },
      comment: { type: "string", description: "Optional message to include with your response" },
      modificationScope: {
        type: "string",
        enum: ["thisEventOnly", "all"],
        description: "For recurring events: respond to this instance only or to all instances",
      },
      originalStartTime: timeParam(
        "Original start time of the instance (required when modificationScope is 'thisEventOnly')",
      ),
      sendUpdates: sendUpdatesParam,
    },
    required: ["calendarId", "eventId", "response"],
  },
  outputSchema: {
    type: "object",
    properties: {
      event: structuredEvent,
      responseStatus: { type: "string" },
      sendUpdates: { type: "string" },
      message: { type: "string" },
    },
    required: ["event", "responseStatus", "message"],
  },
  annotations: { title: "Respond to event", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state, now }) => {
    requireAccount(state, args.account);
    const calendar = requireEventReader(resolveCalendar(state, String(args.calendarId)));
    const target = findInstance(state, calendar, String(args.eventId));
    const me = selfAttendee(state, target.view);
    if (!me)
      throw new ToolError(
        "not_invited",
        `You (${state.account.email}) are not an attendee of "${target.view.summary}".`,
      );
    if (me.organizer || target.view.organizer.email === state.account.email) {
      throw new ToolError(
        "invalid_argument",
        `You are the organizer of "${target.view.summary}"; organizers do not RSVP.`,
      );
    }
    const response = String(args.response) as typeof me.responseStatus;
    const answer = (attendees: StoredEvent["attendees"]) =>
      (attendees ?? []).map((attendee) =>
        attendee.email === me.email
          ? {
              ...attendee,
              responseStatus: response,
              ...(typeof args.comment === "string" ? { comment: args.comment } : {}),
            }
          : attendee,
      );
    const scope = args.modificationScope ?? (target.id === target.base.id ? "all" : "thisEventOnly");
    let resultId = target.base.id;
    if (scope === "thisEventOnly" && target.base.recurrence) {
      const zone = target.base.start.timeZone ?? calendar.timeZone;
      const instance = pickInstance(calendar, target, args.originalStartTime, "originalStartTime", zone);
      target.base.overrides[instance.id] = mergePatch(target.base.overrides[instance.id], {
        attendees: answer(instance.view.attendees),
      });
      resultId = instance.id;
    } else target.base.attendees = answer(target.base.attendees);
    target.base.updated = now.toISOString();
    const labels = {
      accepted: "accepted",
      declined: "declined",
      tentative: "responded maybe to",
      needsAction: "cleared your response to",
    };
    return {
      event: renderEvent(state, findInstance(state, calendar, resultId)),
      responseStatus: response,
      sendUpdates: String(args.sendUpdates ?? "all"),
      message: `You ${labels[response]} "${target.view.summary}".`,
    };
  },
};
