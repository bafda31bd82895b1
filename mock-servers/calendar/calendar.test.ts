import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
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
const summaries = (events: Json[]) => events.map((event) => event.summary);

describe("calendar mock: surface", () => {
  it("follows the kit's spec rules and lists nspady's 13 tools with their required parameters", async () => {
    expect(specViolations(calendarServer)).toEqual([]);
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "create-event",
        "create-events",
        "delete-event",
        "get-current-time",
        "get-event",
        "get-freebusy",
        "list-calendars",
        "list-colors",
        "list-events",
        "manage-accounts",
        "respond-to-event",
        "search-events",
        "update-event",
      ].sort(),
    );
    const search = tools.find((tool) => tool.name === "search-events")!;
    expect(search.inputSchema.required).toEqual(["calendarId", "query", "timeMin", "timeMax"]);
  });
});

describe("calendar mock: reading", () => {
  it("lists calendars with access roles", async () => {
    const result = await ok("list-calendars", {});
    expect(result.totalCount).toBe(4);
    expect(result.calendars.map((calendar: Json) => [calendar.summary, calendar.accessRole])).toEqual([
      ["alice@acme.dev", "owner"],
      ["Acme Engineering", "writer"],
      ["Holidays in United States", "reader"],
      ["Bob Martinez", "freeBusyReader"],
    ]);
  });

  it("lists today's events with recurring instances expanded, in order", async () => {
    const today = await ok("list-events", {
      calendarId: "primary",
      timeMin: "2026-03-16T00:00:00",
      timeMax: "2026-03-17T00:00:00",
    });
    expect(summaries(today.events)).toEqual([
      "Daily Standup",
      "Lunch with Grace",
      "Sprint Planning",
      "Interview: Backend Engineer candidate",
    ]);
    expect(today.events[0]).toMatchObject({
      id: `${STANDUP}_20260316T090000Z`,
      recurringEventId: STANDUP,
      startDayOfWeek: "Monday",
    });
  });

  it("defaults to the next 90 days from now, and renders times in a requested zone", async () => {
    const upcoming = await ok("list-events", { calendarId: "primary" });
    expect(summaries(upcoming.events)).not.toContain("Board meeting prep");
    expect(summaries(upcoming.events)).toContain("Lunch with Grace");
    const la = await ok("list-events", {
      calendarId: "primary",
      timeMin: "2026-03-16T12:00:00Z",
      timeMax: "2026-03-16T13:00:00Z",
      timeZone: "America/Los_Angeles",
    });
    expect(la.events[0].start).toEqual({ dateTime: "2026-03-16T05:00:00-07:00", timeZone: "America/Los_Angeles" });
  });

  it("reads several calendars by ID or name and filters by extended properties", async () => {
    const both = await ok("list-events", {
      calendarId: ["primary", "Acme Engineering"],
      timeMin: "2026-03-18T17:00:00Z",
      timeMax: "2026-03-18T19:00:00Z",
    });
    expect(summaries(both.events)).toEqual(["Postmortem Review: Mar 14 API latency", "v2.4.0 Code Freeze"]);
    expect(both.calendars).toEqual(["alice@acme.dev", TEAM]);
    const none = await ok("list-events", { calendarId: "primary", privateExtendedProperty: ["project=atlas"] });
    expect(none.totalCount).toBe(0);
  });

  it("refuses unknown calendars, free/busy-only calendars, bad times and reversed ranges", async () => {
    expect(await server.call("list-events", { calendarId: "Marketing" })).toMatchObject(toolError("not found"));
    expect(await server.call("list-events", { calendarId: "bob@acme.dev" })).toMatchObject(toolError("get-freebusy"));
    expect(await server.call("list-events", { calendarId: "primary", timeMin: "next monday" })).toMatchObject(
      toolError("invalid_argument"),
    );
    expect(
      await server.call("list-events", { calendarId: "primary", timeMin: "2026-03-20", timeMax: "2026-03-19" }),
    ).toMatchObject(toolError("timeMax must be after timeMin"));
    expect(await server.call("list-events", { calendarId: "primary", timeZone: "Pacific" })).toMatchObject(
      toolError("invalid_timezone"),
    );
  });

  it("searches summary, description, location and attendees within the range", async () => {
    const globex = await ok("search-events", {
      calendarId: "primary",
      query: "globex",
      timeMin: "2026-03-16",
      timeMax: "2026-03-23",
    });
    expect(summaries(globex.events)).toEqual(["Customer call: Globex"]);
    expect(globex).toMatchObject({
      query: "globex",
      calendarId: "alice@acme.dev",
      timeRange: { start: "2026-03-16T00:00:00Z" },
    });
    const byAttendee = await ok("search-events", {
      calendarId: "primary",
      query: "Carol",
      timeMin: "2026-03-16",
      timeMax: "2026-03-23",
    });
    expect(summaries(byAttendee.events)).toEqual(["Design Crit", "Marketing sync", "All-hands"]);
    const missingRange = await server.call("search-events", { calendarId: "primary", query: "x" });
    expect(missingRange).toMatchObject({ kind: "rpc_error", code: -32602 });
  });

  it("gets an event or an instance by ID, and not_found otherwise", async () => {
    const crit = await ok("get-event", { calendarId: "primary", eventId: eventId("Design Crit") });
    expect(crit.event).toMatchObject({ summary: "Design Crit", organizer: { email: "carol@acme.dev" } });
    const instance = await ok("get-event", { calendarId: "primary", eventId: `${STANDUP}_20260318T090000Z` });
    expect(instance.event.start.dateTime).toBe("2026-03-18T09:00:00Z");
    expect(
      await server.call("get-event", { calendarId: "primary", eventId: `${STANDUP}_20260321T090000Z` }),
    ).toMatchObject(toolError("not_found"));
    expect(await server.call("get-event", { calendarId: TEAM, eventId: eventId("Design Crit") })).toMatchObject(
      toolError("not_found"),
    );
  });

  it("lists the color palette and the connected account", async () => {
    const colors = await ok("list-colors", {});
    expect(Object.keys(colors.event)).toHaveLength(11);
    expect(colors.event["11"]).toEqual({ background: "#dc2127", foreground: "#1d1d1d" });
    const accounts = await ok("manage-accounts", { action: "list" });
    expect(accounts.accounts[0]).toMatchObject({ account_id: "normal", email: "alice@acme.dev", status: "active" });
    expect(await server.call("manage-accounts", { action: "add", account_id: "work" })).toMatchObject(
      toolError("unavailable"),
    );
    expect(await server.call("manage-accounts", { action: "remove", account_id: "normal" })).toMatchObject(
      toolError("only connected account"),
    );
    expect(await server.call("list-calendars", { account: "work" })).toMatchObject(toolError("account_not_found"));
  });

  it("tells the fixed time in the calendar's zone or a requested one", async () => {
    expect(await ok("get-current-time", {})).toEqual({
      currentTime: "2026-03-16T09:30:00Z",
      timezone: "UTC",
      offset: "+00:00",
      isDST: false,
      dayOfWeek: "Monday",
    });
    expect(await ok("get-current-time", { timeZone: "Asia/Tokyo" })).toMatchObject({
      currentTime: "2026-03-16T18:30:00+09:00",
      offset: "+09:00",
    });
  });
});

describe("calendar mock: free/busy", () => {
  it("merges busy events, skips declined, transparent and all-day-free events, and includes invitations for people", async () => {
    const result = await ok("get-freebusy", {
      calendars: [{ id: "primary" }, { id: "bob@acme.dev" }, { id: HOLIDAYS }, { id: "zoe@acme.dev" }],
      timeMin: "2026-03-17T00:00:00Z",
      timeMax: "2026-03-18T00:00:00Z",
    });
    expect(result.calendars.primary.busy).toEqual([
      { start: "2026-03-17T09:00:00Z", end: "2026-03-17T09:15:00Z" },
      { start: "2026-03-17T09:30:00Z", end: "2026-03-17T11:30:00Z" },
      { start: "2026-03-17T15:00:00Z", end: "2026-03-17T17:00:00Z" },
    ]);
    expect(result.calendars["bob@acme.dev"].busy).toContainEqual({
      start: "2026-03-17T12:00:00Z",
      end: "2026-03-17T13:00:00Z",
    });
    expect(result.calendars[HOLIDAYS].busy).toEqual([]);
    expect(result.calendars["zoe@acme.dev"]).toEqual({ busy: [], errors: [{ domain: "global", reason: "notFound" }] });
  });

  it("refuses ranges longer than three months", async () => {
    const outcome = await server.call("get-freebusy", {
      calendars: [{ id: "primary" }],
      timeMin: "2026-03-01",
      timeMax: "2026-07-01",
    });
    expect(outcome).toMatchObject(toolError("3 months"));
  });
});

describe("calendar mock: determinism", () => {
  it("starts identical every time and returns to the fixture state on reset", async () => {
    const other = await openTestServer(calendarServer);
    const fresh = await other.dump();
    expect(await server.dump()).toEqual(fresh);
    await ok("delete-event", { calendarId: "primary", eventId: eventId("Lunch with Grace") });
    expect(await server.dump()).not.toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
    await other.close();
  });
});
