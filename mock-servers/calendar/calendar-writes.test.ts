import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { calendarServer } from "./server.ts";
import type { CalendarState } from "./state.ts";
import { eventId, HOLIDAYS, type Json, STANDUP, TEAM } from "./test-helpers.ts";

let server: TestServer<CalendarState>;
beforeEach(async () => {
  server = await openTestServer(calendarServer);
});
afterEach(async () => {
  await server.close();
});
const ok = (name: string, args: Json) => server.ok(name, args) as Promise<Json>;
const toolError = (text: string) => ({ kind: "tool_error", text: expect.stringContaining(text) });
const check = async (expect_: string, args: Json) => (await server.check(expect_, args)).pass;

const DAVE_SYNC = {
  calendarId: "primary",
  summary: "Sync with Dave",
  start: "2026-03-16T14:30:00",
  end: "2026-03-16T15:00:00",
  attendees: [{ email: "dave@acme.dev" }],
};

describe("calendar mock: create", () => {
  it("creates an event in the calendar's zone, reports conflicts, and flips event_exists", async () => {
    const args = { summary: "Sync with Dave", start: "2026-03-16T14:30:00Z", attendees: ["dave@acme.dev"] };
    expect(await check("event_exists", args)).toBe(false);
    const created = await ok("create-event", DAVE_SYNC);
    expect(created.event).toMatchObject({
      summary: "Sync with Dave",
      start: { dateTime: "2026-03-16T14:30:00Z", timeZone: "UTC" },
      attendees: [{ email: "dave@acme.dev", responseStatus: "needsAction" }],
      organizer: { email: "alice@acme.dev", self: true },
    });
    expect(created.event.id).toMatch(/^[a-v0-9]{20}$/);
    expect(created.conflicts).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({ title: "Sprint Planning" }),
        overlap: { duration: "30 minutes", percentage: "100%" },
      }),
    ]);
    expect(await check("event_exists", args)).toBe(true);
    expect(await check("event_exists", { ...args, start: "2026-03-16" })).toBe(true);
    expect(await check("event_exists", { ...args, attendees: ["erin@acme.dev"] })).toBe(false);
  });

  it("reads local times in the given timeZone and makes all-day events and Meet links", async () => {
    const la = await ok("create-event", {
      ...DAVE_SYNC,
      summary: "LA call",
      start: "2026-03-17T08:00:00",
      end: "2026-03-17T08:30:00",
      timeZone: "America/Los_Angeles",
    });
    expect(la.event.start).toEqual({ dateTime: "2026-03-17T08:00:00-07:00", timeZone: "America/Los_Angeles" });
    expect(await check("event_exists", { summary: "LA call", start: "2026-03-17T15:00:00Z" })).toBe(true);
    const allDay = await ok("create-event", {
      calendarId: "Acme Engineering",
      summary: "Hack day",
      start: "2026-03-30",
      end: "2026-03-31",
      conferenceData: { createRequest: { requestId: "hack-1", conferenceSolutionKey: { type: "hangoutsMeet" } } },
    });
    expect(allDay.event).toMatchObject({
      start: { date: "2026-03-30" },
      calendarId: TEAM,
      hangoutLink: expect.stringMatching(/^https:\/\/meet\.google\.com\//),
    });
  });

  it("refuses read-only calendars, empty ranges, mixed date kinds, bad colors, bad IDs and exact duplicates", async () => {
    expect(await server.call("create-event", { ...DAVE_SYNC, calendarId: HOLIDAYS })).toMatchObject(
      toolError("writer access"),
    );
    expect(await server.call("create-event", { ...DAVE_SYNC, end: "2026-03-16T14:00:00" })).toMatchObject(
      toolError("time range is empty"),
    );
    expect(await server.call("create-event", { ...DAVE_SYNC, end: "2026-03-17" })).toMatchObject(
      toolError("must both be dates"),
    );
    expect(await server.call("create-event", { ...DAVE_SYNC, colorId: "12" })).toMatchObject(
      toolError("Invalid colorId"),
    );
    expect(await server.call("create-event", { ...DAVE_SYNC, eventId: "Meeting-1" })).toMatchObject({
      kind: "rpc_error",
      code: -32602,
    });
    expect(await server.call("create-event", { ...DAVE_SYNC, eventId: eventId("Design Crit") })).toMatchObject(
      toolError("already exists"),
    );
    expect(await server.call("create-event", { ...DAVE_SYNC, recurrence: ["RRULE:FREQ=HOURLY"] })).toMatchObject(
      toolError("invalid_recurrence"),
    );
    const lunch = {
      calendarId: "primary",
      summary: "Lunch with Grace",
      start: "2026-03-16T12:00:00Z",
      end: "2026-03-16T13:00:00Z",
    };
    expect(await server.call("create-event", lunch)).toMatchObject(toolError("duplicate_event"));
    const forced = await ok("create-event", { ...lunch, allowDuplicates: true });
    expect(forced.duplicates).toHaveLength(1);
  });

  it("creates events in bulk and reports the failures by index", async () => {
    const result = await ok("create-events", {
      timeZone: "UTC",
      events: [
        { summary: "Office hours", start: "2026-03-23T16:00:00", end: "2026-03-23T17:00:00" },
        { summary: "Holiday party", start: "2026-03-24T18:00:00", end: "2026-03-24T20:00:00", calendarId: HOLIDAYS },
        {
          summary: "Planning prep",
          start: "2026-03-23T10:00:00",
          end: "2026-03-23T11:00:00",
          calendarId: "Acme Engineering",
        },
      ],
    });
    expect(result).toMatchObject({
      totalRequested: 3,
      totalCreated: 2,
      totalFailed: 1,
      failed: [{ index: 1, summary: "Holiday party" }],
    });
    expect(await check("event_exists", { summary: "Planning prep", calendarId: TEAM })).toBe(true);
  });
});

describe("calendar mock: update", () => {
  it("moves a single event, keeping its duration when only start is given, and flips event_updated", async () => {
    const id = eventId("Customer call: Globex");
    const args = { event_id: id, field: "start", value: "2026-03-18T15:00:00Z" };
    expect(await check("event_updated", args)).toBe(false);
    const updated = await ok("update-event", {
      calendarId: "primary",
      eventId: id,
      start: "2026-03-18T15:00:00",
      location: "Zoom",
    });
    expect(updated.event).toMatchObject({
      start: { dateTime: "2026-03-18T15:00:00Z" },
      end: { dateTime: "2026-03-18T15:30:00Z" },
      location: "Zoom",
      sequence: 1,
    });
    expect(await check("event_updated", args)).toBe(true);
    expect(await check("event_updated", { event_id: id, field: "location", value: "zoom" })).toBe(true);
  });

  it("adds attendees while keeping existing responses, and reports conflicts of a move", async () => {
    const id = eventId("Lunch with Grace");
    const updated = await ok("update-event", {
      calendarId: "primary",
      eventId: id,
      attendees: [{ email: "alice@acme.dev" }, { email: "grace@acme.dev" }, { email: "carol@acme.dev" }],
      start: "2026-03-16T14:00:00Z",
    });
    expect(updated.event.attendees.map((a: Json) => [a.email, a.responseStatus])).toEqual([
      ["alice@acme.dev", "accepted"],
      ["grace@acme.dev", "accepted"],
      ["carol@acme.dev", "needsAction"],
    ]);
    expect(updated.conflicts[0].event.title).toBe("Sprint Planning");
    expect(await check("event_updated", { event_id: id, field: "attendees", value: "carol@acme.dev" })).toBe(true);
  });

  it("edits one instance of a series, or this and following, or the whole series", async () => {
    const one = await ok("update-event", {
      calendarId: "primary",
      eventId: STANDUP,
      modificationScope: "thisEventOnly",
      originalStartTime: "2026-03-17T09:00:00Z",
      start: "2026-03-17T09:30:00Z",
      summary: "Daily Standup (late)",
    });
    expect(one.event).toMatchObject({
      id: `${STANDUP}_20260317T090000Z`,
      summary: "Daily Standup (late)",
      start: { dateTime: "2026-03-17T09:30:00Z" },
    });
    const wednesday = await ok("get-event", { calendarId: "primary", eventId: `${STANDUP}_20260318T090000Z` });
    expect(wednesday.event.summary).toBe("Daily Standup");

    const following = await ok("update-event", {
      calendarId: "primary",
      eventId: `${STANDUP}_20260323T090000Z`,
      modificationScope: "thisAndFollowing",
      start: "2026-03-23T09:15:00Z",
    });
    expect(following.event.id).toBe(`${STANDUP}_R20260323T090000Z`);
    const week = await ok("list-events", {
      calendarId: "primary",
      timeMin: "2026-03-20",
      timeMax: "2026-03-25",
      timeZone: "UTC",
    });
    const standups = week.events.filter((e: Json) => e.summary === "Daily Standup").map((e: Json) => e.start.dateTime);
    expect(standups).toEqual(["2026-03-20T09:00:00Z", "2026-03-23T09:15:00Z", "2026-03-24T09:15:00Z"]);

    const all = await ok("update-event", {
      calendarId: "primary",
      eventId: eventId("1:1 Alice / Erin"),
      summary: "Erin / Alice 1:1",
    });
    expect(all.event.recurrence).toEqual(["RRULE:FREQ=WEEKLY;BYDAY=TH"]);
    expect(
      await server.call("update-event", {
        calendarId: "primary",
        eventId: eventId("All-hands"),
        modificationScope: "thisEventOnly",
      }),
    ).toMatchObject(toolError("only applies to recurring events"));
    expect(
      await server.call("update-event", {
        calendarId: "primary",
        eventId: STANDUP,
        modificationScope: "thisEventOnly",
        summary: "x",
      }),
    ).toMatchObject(toolError("originalStartTime is required"));
  });
});

describe("calendar mock: delete and respond", () => {
  it("deletes an event and a single instance, flipping event_deleted", async () => {
    const id = eventId("Dentist appointment");
    expect(await check("event_deleted", { event_id: id })).toBe(false);
    expect(await ok("delete-event", { calendarId: "primary", eventId: id })).toEqual({
      success: true,
      eventId: id,
      calendarId: "alice@acme.dev",
      message: "Event deleted successfully",
    });
    expect(await check("event_deleted", { event_id: id })).toBe(true);
    expect(await server.call("delete-event", { calendarId: "primary", eventId: id })).toMatchObject(
      toolError("not_found"),
    );

    const instance = `${STANDUP}_20260319T090000Z`;
    await ok("delete-event", { calendarId: "primary", eventId: instance });
    expect(await check("event_deleted", { event_id: instance })).toBe(true);
    expect(await check("event_deleted", { event_id: STANDUP })).toBe(false);
    expect(await server.call("delete-event", { calendarId: HOLIDAYS, eventId: eventId("Tax Day") })).toMatchObject(
      toolError("writer access"),
    );
  });

  it("RSVPs to an invitation, refuses organizers and non-invitees, and flips event_response", async () => {
    const crit = eventId("Design Crit");
    expect(await check("event_response", { event_id: crit, response: "accepted" })).toBe(false);
    const answered = await ok("respond-to-event", {
      calendarId: "primary",
      eventId: crit,
      response: "accepted",
      comment: "See you there",
    });
    expect(answered).toMatchObject({
      responseStatus: "accepted",
      sendUpdates: "all",
      message: 'You accepted "Design Crit".',
    });
    expect(await check("event_response", { event_id: crit, response: "accepted" })).toBe(true);
    expect(
      await server.call("respond-to-event", {
        calendarId: "primary",
        eventId: eventId("Lunch with Grace"),
        response: "declined",
      }),
    ).toMatchObject(toolError("organizer"));
    expect(
      await server.call("respond-to-event", {
        calendarId: "primary",
        eventId: eventId("Focus time"),
        response: "declined",
      }),
    ).toMatchObject(toolError("not_invited"));
    expect(
      await server.call("respond-to-event", { calendarId: "primary", eventId: crit, response: "maybe" }),
    ).toMatchObject({ kind: "rpc_error", code: -32602 });
  });

  it("declining one instance of a series frees that slot only", async () => {
    const handover = eventId("On-call handover");
    const monday = `${handover}_20260316T170000Z`;
    const nextMonday = `${handover}_20260323T170000Z`;
    const busyAt17 = async (day: string) => {
      const result = await ok("get-freebusy", {
        calendars: [{ id: "primary" }],
        timeMin: `${day}T17:00:00Z`,
        timeMax: `${day}T17:15:00Z`,
      });
      return result.calendars.primary.busy.length > 0;
    };
    expect(await busyAt17("2026-03-16")).toBe(true);
    const answered = await ok("respond-to-event", { calendarId: TEAM, eventId: monday, response: "declined" });
    expect(answered.event.id).toBe(monday);
    expect(await check("event_response", { event_id: monday, response: "declined" })).toBe(true);
    expect(await check("event_response", { event_id: nextMonday, response: "needsAction" })).toBe(true);
    expect(await busyAt17("2026-03-16")).toBe(false);
    expect(await busyAt17("2026-03-23")).toBe(true);
  });
});
