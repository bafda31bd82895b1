import calendars from "./fixtures/calendars.json" with { type: "json" };
import events from "./fixtures/events.json" with { type: "json" };

/** Fixture IDs for the calendar tests. */
export const eventId = (summary: string) => events.find((event) => event.summary === summary)!.id;
export const TEAM = calendars.calendars.find((calendar) => calendar.summary === "Acme Engineering")!.id;
export const HOLIDAYS = calendars.calendars.find((calendar) => calendar.id.includes("#holiday"))!.id;
export const STANDUP = eventId("Daily Standup");

// biome-ignore lint/suspicious/noExplicitAny: results are free-form event JSON, read field by field
export type Json = Record<string, any>;
