import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import { notionServer } from "./server.ts";
import type { NotionState } from "./state.ts";
import { pageId, paragraph, rowId, TASKS, userId } from "./test-helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: results are free-form Notion API JSON, read field by field
type Json = Record<string, any>;
const ROADMAP = pageId("Q3 Roadmap");
const WIKI = pageId("Engineering Wiki");

let server: TestServer<NotionState>;
beforeEach(async () => {
  server = await openTestServer(notionServer);
});
afterEach(async () => {
  await server.close();
});
const ok = (name: string, args: Json) => server.ok(name, args) as Promise<Json>;

const titleOf = (page: Json) =>
  page.properties?.title?.title?.[0]?.plain_text ?? page.properties?.Name?.title?.[0]?.plain_text;
const toolError = (code: string) => ({ kind: "tool_error", text: expect.stringContaining(code) });

describe("notion mock: surface", () => {
  it("follows the kit's spec rules and lists the v2.5.0 API-* tools", async () => {
    expect(specViolations(notionServer)).toEqual([]);
    const { tools } = await server.client.listTools();
    expect(tools).toHaveLength(24);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["API-post-search", "API-query-data-source", "API-update-page-markdown"]),
    );
    expect(tools.every((tool) => tool.description?.startsWith("Notion | "))).toBe(true);
    const patch = tools.find((tool) => tool.name === "API-patch-page")!;
    expect((patch.inputSchema.properties as Json).properties.anyOf[1]).toEqual({ type: "string" });
  });
});

describe("notion mock: search and users", () => {
  it("finds pages and data sources by title words, newest edit first, and filters by object", async () => {
    const meeting = await ok("API-post-search", { query: "meeting notes" });
    expect((meeting.results as Json[]).map(titleOf)).toEqual([
      "Meeting Notes",
      "Meeting Notes 2026-03-10",
      "Meeting Notes 2026-03-03",
    ]);

    const sources = await ok("API-post-search", {
      query: "tasks",
      filter: { property: "object", value: "data_source" },
    });
    expect(sources.results).toHaveLength(1);
    expect((sources.results as Json[])[0]).toMatchObject({ object: "data_source", id: TASKS.data_source_id });

    const asString = await ok("API-post-search", {
      query: "",
      filter: '{"property":"object","value":"page"}',
      page_size: 5,
    });
    expect(asString).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const next = await ok("API-post-search", {
      query: "",
      filter: { property: "object", value: "page" },
      start_cursor: asString.next_cursor,
      page_size: 5,
    });
    expect((next.results as Json[])[0]!.id).toBe(asString.next_cursor);
  });

  it('rejects the v1 filter value "database" before the handler', async () => {
    const outcome = await server.call("API-post-search", {
      query: "Tasks",
      filter: { property: "object", value: "database" },
    });
    expect(outcome).toMatchObject({ kind: "rpc_error", code: -32602 });
  });

  it("lists users, fetches one, and returns the bot for get-self", async () => {
    const users = await ok("API-get-users", {});
    expect((users.results as Json[]).map((user) => user.name)).toContain("Alice Chen");
    const alice = await ok("API-get-user", { user_id: userId("alice") });
    expect(alice).toMatchObject({ type: "person", person: { email: "alice@acme.dev" } });
    expect(await ok("API-get-self", {})).toMatchObject({ type: "bot", name: "OnsetLab Bench" });
    expect(await server.call("API-get-user", { user_id: "alice" })).toMatchObject(toolError("validation_error"));
  });
});

describe("notion mock: pages", () => {
  it("retrieves a page with or without dashes in the ID, and limits properties with filter_properties", async () => {
    const page = await ok("API-retrieve-a-page", { page_id: ROADMAP.replaceAll("-", "") });
    expect(page).toMatchObject({ id: ROADMAP, parent: { type: "workspace", workspace: true }, in_trash: false });
    expect(page.url).toBe(`https://www.notion.so/Q3-Roadmap-${ROADMAP.replaceAll("-", "")}`);
    const row = await ok("API-retrieve-a-page", {
      page_id: rowId("Search reindex job"),
      filter_properties: "title",
    });
    expect(Object.keys(row.properties as Json)).toEqual(["Name"]);
  });

  it("answers validation_error for a title where an ID belongs and object_not_found for an unknown UUID", async () => {
    expect(await server.call("API-retrieve-a-page", { page_id: "Q3 Roadmap" })).toMatchObject(
      toolError("validation_error"),
    );
    const unknown = await server.call("API-retrieve-a-page", { page_id: "00000000-0000-4000-8000-000000000000" });
    expect(unknown).toMatchObject(toolError("object_not_found"));
    // A database ID is not a data source ID (the classic 2025-09-03 mix-up).
    expect(await server.call("API-query-data-source", { data_source_id: TASKS.id })).toMatchObject(
      toolError("object_not_found"),
    );
  });

  it("creates a page under a page with content, deterministic ID and a child_page block in the parent", async () => {
    const created = await ok("API-post-page", {
      parent: { page_id: WIKI },
      properties: { title: [{ text: { content: "Release Checklist" } }] },
      children: [
        "Run the smoke tests.",
        JSON.stringify({ type: "to_do", to_do: { rich_text: [{ text: { content: "Tag the release" } }] } }),
      ],
      icon: "✅",
    });
    expect(created).toMatchObject({
      parent: { type: "page_id", page_id: WIKI },
      icon: { emoji: "✅" },
      created_by: { id: expect.any(String) },
    });
    const children = await ok("API-get-block-children", { block_id: created.id });
    expect((children.results as Json[]).map((block) => block.type)).toEqual(["paragraph", "to_do"]);
    const wiki = await ok("API-get-block-children", { block_id: WIKI });
    expect((wiki.results as Json[]).at(-1)).toMatchObject({
      id: created.id,
      type: "child_page",
      child_page: { title: "Release Checklist" },
    });

    const again = await openTestServer(notionServer);
    const twin = await again.ok("API-post-page", {
      parent: { page_id: WIKI },
      properties: { title: [{ text: { content: "Release Checklist" } }] },
    });
    expect(twin.id).toBe(created.id);
    await again.close();
  });

  it("creates a task row in a database and validates its properties like the API", async () => {
    const row = await ok("API-post-page", {
      parent: { type: "database_id", database_id: TASKS.id },
      properties: {
        Name: { title: [{ text: { content: "Upgrade Node to 22" } }] },
        Status: { status: { name: "Not started" } },
        Assignee: { people: [{ id: userId("erin") }] },
        Due: { date: { start: "2026-03-27" } },
        Tags: { multi_select: [{ name: "infra" }, { name: "tooling" }] },
      },
    });
    expect(row.parent).toEqual({ type: "data_source_id", data_source_id: TASKS.data_source_id, database_id: TASKS.id });
    expect(row.properties.Tags.multi_select.map((tag: Json) => tag.name)).toEqual(["infra", "tooling"]);
    expect(row.properties.Priority).toMatchObject({ type: "select", select: null });

    const shorthand = await server.call("API-post-page", {
      parent: { database_id: TASKS.id },
      properties: { Name: { title: [{ text: { content: "x" } }] }, Status: "Done" },
    });
    expect(shorthand).toMatchObject(toolError("status should be defined"));
    const badStatus = await server.call("API-post-page", {
      parent: { database_id: TASKS.id },
      properties: { Name: { title: [{ text: { content: "x" } }] }, Status: { status: { name: "Finished" } } },
    });
    expect(badStatus).toMatchObject(toolError('Status option "Finished" does not exist'));
    const unknownProp = await server.call("API-post-page", {
      parent: { database_id: TASKS.id },
      properties: { Owner: { people: [] } },
    });
    expect(unknownProp).toMatchObject(toolError("Owner is not a property that exists"));
  });

  it("updates properties, icon and trash state with patch-page, and refuses edits to a trashed page", async () => {
    const task = rowId("Rotate VPN certificate");
    const updated = await ok("API-patch-page", {
      page_id: task,
      properties: JSON.stringify({ Status: { status: { name: "Done" } }, Priority: { select: { name: "High" } } }),
      icon: { emoji: "🔐" },
    });
    expect(updated.properties.Status.status.name).toBe("Done");
    expect(updated.icon).toEqual({ type: "emoji", emoji: "🔐" });
    expect(updated.last_edited_time).toBe("2026-03-16T09:30:00.000Z");

    await ok("API-patch-page", { page_id: task, in_trash: true });
    const edit = await server.call("API-patch-page", { page_id: task, properties: { Name: { title: [] } } });
    expect(edit).toMatchObject(toolError("archived"));
    const restored = await ok("API-patch-page", { page_id: task, in_trash: false });
    expect(restored.in_trash).toBe(false);
  });

  it("retrieves page property items, paginated for people and single for selects", async () => {
    const press = rowId("Press kit for spring launch");
    const people = await ok("API-retrieve-a-page-property", { page_id: press, property_id: "a%3Fs" });
    expect(people).toMatchObject({ object: "list", type: "property_item" });
    expect((people.results as Json[]).map((item) => item.people.name)).toEqual(["Grace Liu", "Carol Singh"]);
    const priority = await ok("API-retrieve-a-page-property", { page_id: press, property_id: "Priority" });
    expect(priority).toMatchObject({ object: "property_item", type: "select", select: { name: "Medium" } });
    expect(await server.call("API-retrieve-a-page-property", { page_id: press, property_id: "Owner" })).toMatchObject(
      toolError("object_not_found"),
    );
  });

  it("moves a page to a new parent and refuses to move a page under its own child", async () => {
    const blog = pageId("Blog Draft: Introducing the new dashboard");
    const moved = await ok("API-move-page", { page_id: blog, parent: { type: "page_id", page_id: ROADMAP } });
    expect(moved.parent).toEqual({ type: "page_id", page_id: ROADMAP });
    const marketing = await ok("API-get-block-children", { block_id: pageId("Marketing") });
    expect((marketing.results as Json[]).map((block) => block.id)).not.toContain(blog);
    const cycle = await server.call("API-move-page", {
      page_id: WIKI,
      parent: { type: "page_id", page_id: pageId("Onboarding Guide") },
    });
    expect(cycle).toMatchObject(toolError("descendants"));
  });
});

describe("notion mock: comments", () => {
  it("lists a page's comments and adds one as the bot", async () => {
    const before = await ok("API-retrieve-a-comment", { block_id: ROADMAP });
    expect(before.results).toHaveLength(2);
    const comment = await ok("API-create-a-comment", {
      parent: { page_id: ROADMAP },
      rich_text: [{ text: { content: "SCIM GA in July works for support." } }],
    });
    expect(comment).toMatchObject({ object: "comment", parent: { type: "page_id", page_id: ROADMAP } });
    const after = await ok("API-retrieve-a-comment", { block_id: ROADMAP });
    expect(after.results).toHaveLength(3);
    const missingText = await server.call("API-create-a-comment", {
      parent: { page_id: ROADMAP },
      rich_text: [{ content: "x" }],
    });
    expect(missingText).toMatchObject({ kind: "rpc_error", code: -32602 });
  });
});

describe("notion mock: state checks", () => {
  it("page_exists fails before the page is created and passes after, honouring parent_id", async () => {
    const args = { title: "Q4 Roadmap", parent_id: ROADMAP };
    expect((await server.check("page_exists", args)).pass).toBe(false);
    await ok("API-post-page", {
      parent: { page_id: ROADMAP },
      properties: { title: [{ text: { content: "Q4 Roadmap" } }] },
    });
    expect((await server.check("page_exists", args)).pass).toBe(true);
    expect((await server.check("page_exists", { ...args, parent_id: WIKI })).pass).toBe(false);
  });

  it("page_property_equals follows an update (status by name, people by name or email)", async () => {
    const task = { title: "Connection pool saturation alert" };
    expect(
      (await server.check("page_property_equals", { ...task, property: "Assignee", value: "Dave Okafor" })).pass,
    ).toBe(false);
    await ok("API-patch-page", {
      page_id: rowId(task.title),
      properties: { Assignee: { people: [{ id: userId("dave") }] }, Status: { status: { name: "In progress" } } },
    });
    expect(
      (await server.check("page_property_equals", { ...task, property: "Assignee", value: "dave@acme.dev" })).pass,
    ).toBe(true);
    expect(
      (await server.check("page_property_equals", { ...task, property: "Status", value: "in progress" })).pass,
    ).toBe(true);
  });

  it("block_appended counts only blocks added this session", async () => {
    const args = { page_id: ROADMAP, text_contains: "SCIM" };
    expect((await server.check("block_appended", args)).pass).toBe(false);
    await ok("API-patch-block-children", {
      block_id: ROADMAP,
      children: [paragraph("Decision: SCIM GA moves to July.")],
    });
    expect((await server.check("block_appended", args)).pass).toBe(true);
  });

  it("comment_exists and page_trashed flip after the writes", async () => {
    const postmortem = { title: "Incident Postmortem: 2026-03-14 API latency" };
    expect((await server.check("comment_exists", { ...postmortem, text_contains: "read replica" })).pass).toBe(false);
    await ok("API-create-a-comment", {
      parent: { page_id: pageId(postmortem.title) },
      rich_text: [{ text: { content: "Read replica plan approved." } }],
    });
    expect((await server.check("comment_exists", { ...postmortem, text_contains: "read replica" })).pass).toBe(true);
    expect((await server.check("page_trashed", postmortem)).pass).toBe(false);
    await ok("API-patch-page", { page_id: pageId(postmortem.title), archived: true });
    expect((await server.check("page_trashed", postmortem)).pass).toBe(true);
  });
});

describe("notion mock: determinism", () => {
  it("starts identical every time and returns to the fixture state on reset", async () => {
    const other = await openTestServer(notionServer);
    const fresh = await other.dump();
    expect(await server.dump()).toEqual(fresh);
    await ok("API-patch-block-children", { block_id: ROADMAP, children: [paragraph("temp")] });
    expect(await server.dump()).not.toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
    await other.close();
  });
});
