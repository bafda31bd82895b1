import type { JsonSchema } from "../kit/types.ts";

/** Input fragments of nspady's zod schemas (as z.toJSONSchema renders them) and the StructuredEvent output. */

const ACCOUNT_PATTERN = "^[a-z0-9_-]{1,64}$";

export const readAccount: JsonSchema = {
  anyOf: [
    { type: "string", pattern: ACCOUNT_PATTERN },
    { type: "array", items: { type: "string", pattern: ACCOUNT_PATTERN }, minItems: 1 },
  ],
  description:
    "Account nickname(s) to query (e.g., 'work' or ['work', 'personal']). Optional. If omitted, queries all connected accounts.",
};

export const writeAccount: JsonSchema = {
  type: "string",
  pattern: ACCOUNT_PATTERN,
  description:
    "Account nickname to use for this operation (e.g., 'work', 'personal'). Optional if only one account is connected.",
};

export const calendarIdParam = (what: string): JsonSchema => ({
  type: "string",
  description: `ID of the calendar ${what} (use 'primary' for the main calendar)`,
});

export const multiCalendarId: JsonSchema = {
  anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 1, maxItems: 50 }],
  description:
    "ID of the calendar(s) to query. Accepts calendar IDs (e.g., 'primary', 'user@gmail.com') OR calendar names (e.g., 'Work', 'Personal'). Single calendar: 'primary'. Multiple: ['primary', 'Work'] (max 50).",
};

export const timeParam = (what: string): JsonSchema => ({
  type: "string",
  description: `${what}. Accepts ISO 8601 (e.g., '2026-03-16T10:00:00' in the calendar's time zone, or with Z/offset) or a date '2026-03-16'.`,
});

export const timeZoneParam: JsonSchema = {
  type: "string",
  description: "IANA time zone (e.g., 'America/Los_Angeles'). Defaults to the calendar's time zone.",
};

export const EVENT_FIELDS = [
  "id",
  "summary",
  "description",
  "start",
  "end",
  "location",
  "attendees",
  "colorId",
  "transparency",
  "extendedProperties",
  "reminders",
  "conferenceData",
  "attachments",
  "status",
  "htmlLink",
  "created",
  "updated",
  "creator",
  "organizer",
  "recurrence",
  "recurringEventId",
  "originalStartTime",
  "visibility",
  "iCalUID",
  "sequence",
  "hangoutLink",
  "anyoneCanAddSelf",
  "guestsCanInviteOthers",
  "guestsCanModify",
  "guestsCanSeeOtherGuests",
  "privateCopy",
  "locked",
  "source",
  "eventType",
];

export const fieldsParam: JsonSchema = {
  type: "array",
  items: { type: "string", enum: EVENT_FIELDS },
  description: "Optional array of additional event fields to retrieve.",
};

export const extendedPropertyFilter = (kind: string): JsonSchema => ({
  type: "array",
  items: { type: "string", pattern: "^[^=]+=[^=]+$" },
  description: `Filter by ${kind} extended properties (key=value). Matches events that have all specified properties.`,
});

export const attendeesInput = (full: boolean): JsonSchema => ({
  type: "array",
  description: "List of event attendees with their details",
  items: {
    type: "object",
    properties: {
      email: { type: "string", format: "email", description: "Email address of the attendee" },
      ...(full
        ? {
            displayName: { type: "string" },
            optional: { type: "boolean" },
            responseStatus: { type: "string", enum: ["needsAction", "declined", "tentative", "accepted"] },
            comment: { type: "string" },
            additionalGuests: { type: "integer", minimum: 0 },
          }
        : {}),
    },
    required: ["email"],
  },
});

export const remindersInput: JsonSchema = {
  type: "object",
  description: "Reminder settings for the event",
  properties: {
    useDefault: { type: "boolean", description: "Whether to use the default reminders" },
    overrides: {
      type: "array",
      items: {
        type: "object",
        properties: {
          method: { type: "string", enum: ["email", "popup"], default: "popup" },
          minutes: { type: "number" },
        },
        required: ["minutes"],
      },
    },
  },
  required: ["useDefault"],
};

export const sendUpdatesParam: JsonSchema = {
  type: "string",
  enum: ["all", "externalOnly", "none"],
  description: "Whether to send notifications about the change",
};

export const conferenceDataInput: JsonSchema = {
  type: "object",
  properties: {
    createRequest: {
      type: "object",
      properties: {
        requestId: { type: "string" },
        conferenceSolutionKey: {
          type: "object",
          properties: {
            type: { type: "string", enum: ["hangoutsMeet", "eventHangout", "eventNamedHangout", "addOn"] },
          },
          required: ["type"],
        },
      },
      required: ["requestId", "conferenceSolutionKey"],
    },
  },
  required: ["createRequest"],
};

export const extendedPropertiesInput: JsonSchema = {
  type: "object",
  properties: {
    private: { type: "object", additionalProperties: { type: "string" } },
    shared: { type: "object", additionalProperties: { type: "string" } },
  },
};

export const attachmentsInput: JsonSchema = {
  type: "array",
  items: {
    type: "object",
    properties: {
      fileUrl: { type: "string", format: "uri" },
      title: { type: "string" },
      mimeType: { type: "string" },
      iconLink: { type: "string" },
      fileId: { type: "string" },
    },
    required: ["fileUrl"],
  },
};

const eventTimeOutput: JsonSchema = {
  type: "object",
  properties: { dateTime: { type: "string" }, date: { type: "string" }, timeZone: { type: "string" } },
};

export const structuredEvent: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    summary: { type: "string" },
    start: eventTimeOutput,
    end: eventTimeOutput,
    status: { type: "string" },
    attendees: {
      type: "array",
      items: {
        type: "object",
        properties: { email: { type: "string" }, responseStatus: { type: "string" } },
        required: ["email"],
      },
    },
    calendarId: { type: "string" },
  },
  required: ["id", "start", "end"],
};

export const conflictsOutput: JsonSchema = {
  type: "array",
  items: {
    type: "object",
    properties: { event: { type: "object", required: ["id", "title", "start", "end"] }, calendar: { type: "string" } },
    required: ["event", "calendar"],
  },
};
