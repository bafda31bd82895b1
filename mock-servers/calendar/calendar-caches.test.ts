/**
 * Reads memoise series starts, instance-ID stamps and zone formatting, and skip instances that end before the
 * window: writes after a (cached) read must still show up in the next read.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { calendarServer } from "./server.ts";
import type { CalendarState } from "./state.ts";
import { eventId, type Json, STANDUP } from "./test-helpers.ts";

let server: TestServer<CalendarState>;
beforeEach(async () => {
  server = await openTestServer(calendarServer);
});
afterEach(async () => {
  await server.close();
});
const ok = (name: string, args: Json) => server.ok(name, args) as Promise<Json>;
const WEEK = { calendarId: "primary", timeMin: "2026-03-16T00:00:00Z", timeMax: "2026-03-21T00:00:00Z" };
const standups = async () =>
  ((await ok("list-events", WEEK)).events as Json[])
    .filter((event) => event.summary === "Daily Standup")
    .map((event) => event.start.dateTime);

describe("calendar mock: writes after cached reads", () => {
  it("drops a deleted instance and shows an earlier instance moved into the window", async () => {
    expect(await standups()).toEqual([
      "2026-03-16T09:00:00Z",
      "2026-03-17T09:00:00Z",
      "2026-03-18T09:00:00Z",
      "2026-03-19T09:00:00Z",
      "2026-03-20T09:00:00Z",
    ]);
    await ok("delete-event", { calendarId: "primary", eventId: `${STANDUP}_20260317T090000Z` });
    // An instance from the week before the window, moved into it: it must not be skipped as "ends before the window".
    await ok("update-event", {
      calendarId: "primary",
      eventId: `${STANDUP}_20260303T090000Z`,
      modificationScope: "thisEventOnly",
      start: "2026-03-19T14:00:00Z",
      end: "2026-03-19T14:15:00Z",
    });
    expect(await standups()).toEqual([
      "2026-03-16T09:00:00Z",
      "2026-03-18T09:00:00Z",
      "2026-03-19T09:00:00Z",
      "2026-03-19T14:00:00Z",
      "2026-03-20T09:00:00Z",
    ]);
  });

  it("follows a series whose start or rule changed", async () => {
    await standups();
    await ok("update-event", { calendarId: "primary", eventId: STANDUP, start: "2026-03-16T10:00:00Z" });
    expect(await standups()).toEqual([
      "2026-03-16T10:00:00Z",
      "2026-03-17T10:00:00Z",
      "2026-03-18T10:00:00Z",
      "2026-03-19T10:00:00Z",
      "2026-03-20T10:00:00Z",
    ]);
    await ok("update-event", { calendarId: "primary", eventId: STANDUP, recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=WE"] });
    expect(await standups()).toEqual(["2026-03-18T10:00:00Z"]);
  });

  it("finds an instance by ID until it is deleted, and never a single event under an instance ID", async () => {
    const id = `${STANDUP}_20260318T090000Z`;
    expect((await ok("get-event", { calendarId: "primary", eventId: id })).event.id).toBe(id);
    await ok("delete-event", { calendarId: "primary", eventId: id });
    expect(await server.call("get-event", { calendarId: "primary", eventId: id })).toMatchObject({
      kind: "tool_error",
      text: expect.stringContaining("not_found"),
    });
    const single = eventId("Design Crit");
    expect(
      await server.call("get-event", { calendarId: "primary", eventId: `${single}_20260318T090000Z` }),
    ).toMatchObject({ kind: "tool_error", text: expect.stringContaining("not_found") });
  });

  it("formats zones the same on every call and rejects an unknown zone every time", async () => {
    const tokyo = { ...WEEK, timeZone: "Asia/Tokyo" };
    const first = await ok("list-events", tokyo);
    expect(first.events[0].start.dateTime).toMatch(/\+09:00$/);
    expect(await ok("list-events", tokyo)).toEqual(first);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await server.call("get-current-time", { timeZone: "Mars/Olympus_Mons" })).toMatchObject({
        kind: "tool_error",
        text: expect.stringContaining("invalid_timezone"),
      });
    }
  });
});
