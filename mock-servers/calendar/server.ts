import type { ServerSpec } from "../kit/types.ts";
import { calendarChecks } from "./checks.ts";
import { type CalendarState, createCalendarState } from "./state.ts";
import { manageAccounts } from "./tools/accounts.ts";
import { createEvent, createEvents } from "./tools/create.ts";
import { deleteEvent, respondToEvent, updateEvent } from "./tools/modify.ts";
import {
  getCurrentTime,
  getEvent,
  getFreeBusy,
  listCalendars,
  listColors,
  listEvents,
  searchEvents,
} from "./tools/read.ts";

/** nspady/google-calendar-mcp v2.6.1: the 13 kebab-case tools with their parameter names, types and enums. */
export const calendarServer: ServerSpec<CalendarState> = {
  name: "calendar",
  version: "2.6.1",
  purpose:
    "Imitates nspady's Google Calendar MCP server (v2.6.1) for alice@acme.dev: calendars primary, Acme Engineering, US holidays and Bob's free/busy; default time zone UTC; now is Monday 2026-03-16T09:30:00Z.",
  createState: createCalendarState,
  tools: [
    listCalendars,
    listEvents,
    searchEvents,
    getEvent,
    listColors,
    createEvent,
    createEvents,
    updateEvent,
    deleteEvent,
    getFreeBusy,
    getCurrentTime,
    respondToEvent,
    manageAccounts,
  ],
  checks: calendarChecks,
};
