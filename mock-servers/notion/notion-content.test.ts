import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { notionServer } from "./server.ts";
import type { NotionState } from "./state.ts";
import { DOCS, pageId, paragraph, rowId, TASKS, userId } from "./test-helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: results are free-form Notion API JSON, read field by field
type Json = Record<string, any>;
const ONBOARDING = pageId("Onboarding Guide");
const WIKI = pageId("Engineering Wiki");

let server: TestServer<NotionState>;
beforeEach(async () => {
  server = await openTestServer(notionServer);
});
afterEach(async () => {
  await server.close();
});
const ok = (name: string, args: Json) => server.ok(name, args) as Promise<Json>;

const toolError = (text: string) => ({ kind: "tool_error", text: expect.stringContaining(text) });
const children = async (id: string) => (await ok("API-get-block-children", { block_id: id })).results as Json[];
const names = (rows: Json[]) => rows.map((row) => row.properties.Name.title[0].plain_text);

describe("notion mock: blocks", () => {
  it("pages block children and nests a toggle's children under the toggle", async () => {
    const first = await ok("API-get-block-children", { block_id: ONBOARDING, page_size: 4 });
    expect(first).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const all = await children(ONBOARDING);
    const toggle = all.find((block) => block.type === "toggle")!;
    expect(toggle.has_children).toBe(true);
    const nested = await children(toggle.id);
    expect(nested[0]!.paragraph.rich_text[0].plain_text).toContain("ARM runner pool");
    expect(await server.call("API-get-block-children", { block_id: "nope" })).toMatchObject(
      toolError("validation_error"),
    );
  });

  it("appends after a given block and rejects malformed block bodies with Notion's message", async () => {
    const [heading] = await children(ONBOARDING);
    await ok("API-patch-block-children", {
      block_id: ONBOARDING,
      children: [paragraph("Inserted second")],
      after: heading!.id,
    });
    expect((await children(ONBOARDING))[1]!.paragraph.rich_text[0].plain_text).toBe("Inserted second");

    const oldShape = await server.call("API-patch-block-children", {
      block_id: ONBOARDING,
      children: [{ type: "paragraph", text: "hi" }],
    });
    expect(oldShape).toMatchObject(toolError("body.children[0].paragraph should be defined"));
    const unknownType = await server.call("API-patch-block-children", {
      block_id: ONBOARDING,
      children: [{ type: "table", table: {} }],
    });
    expect(unknownType).toMatchObject(toolError("body.children[0].type should be one of"));
  });

  it("retrieves, updates and deletes a block", async () => {
    const todo = (await children(ONBOARDING)).find((block) => block.type === "to_do" && !block.to_do.checked)!;
    expect(await ok("API-retrieve-a-block", { block_id: todo.id })).toMatchObject({
      id: todo.id,
      type: "to_do",
    });
    const updated = await ok("API-update-a-block", {
      block_id: todo.id,
      type: { to_do: { rich_text: [{ text: { content: "Set up local dev" } }], checked: true } },
    });
    expect(updated.to_do).toMatchObject({ checked: true, rich_text: [{ plain_text: "Set up local dev" }] });
    const retyped = await server.call("API-update-a-block", {
      block_id: todo.id,
      type: { paragraph: { rich_text: [] } },
    });
    expect(retyped).toMatchObject(toolError("cannot be changed"));

    const deleted = await ok("API-delete-a-block", { block_id: todo.id });
    expect(deleted).toMatchObject({ in_trash: true, archived: true });
    expect((await children(ONBOARDING)).map((block) => block.id)).not.toContain(todo.id);
  });

  it("deleting a child_page block trashes the page itself", async () => {
    await ok("API-delete-a-block", { block_id: ONBOARDING });
    expect(await ok("API-retrieve-a-page", { page_id: ONBOARDING })).toMatchObject({ in_trash: true });
    expect((await children(WIKI)).map((block) => block.id)).not.toContain(ONBOARDING);
  });
});

describe("notion mock: markdown", () => {
  const markdown = async (id: string) => String((await ok("API-retrieve-page-markdown", { page_id: id })).markdown);

  it("renders a page as Markdown with child pages and databases as references", async () => {
    const wiki = await markdown(WIKI);
    expect(wiki).toContain("# Engineering Wiki\n");
    expect(wiki).toContain(`<page id="${ONBOARDING}">Onboarding Guide</page>`);
    expect(wiki).toContain(`<database id="${TASKS.id}">Tasks</database>`);
  });

  it("update_content edits in place and keeps the IDs of untouched blocks", async () => {
    const before = await children(ONBOARDING);
    await ok("API-update-page-markdown", {
      page_id: ONBOARDING,
      type: "update_content",
      update_content: {
        content_updates: [
          { old_str: "Shadow the on-call engineer for one day", new_str: "Shadow on-call for two days" },
        ],
      },
    });
    const after = await children(ONBOARDING);
    expect(after.map((block) => block.id).slice(0, 9)).toEqual(before.map((block) => block.id).slice(0, 9));
    expect(await markdown(ONBOARDING)).toContain("1. Shadow on-call for two days");
    const ambiguous = await server.call("API-update-page-markdown", {
      page_id: ONBOARDING,
      type: "update_content",
      update_content: {
        content_updates: [
          { old_str: "Week", new_str: "x" },
          { old_str: "- [x]", new_str: "- [ ]" },
        ],
      },
    });
    expect(ambiguous).toMatchObject(toolError("matches 2 times"));
  });

  it("insert_content and replace_content_range work on selections", async () => {
    await ok("API-update-page-markdown", {
      page_id: ONBOARDING,
      type: "insert_content",
      insert_content: { content: "- [ ] Read the API Style Guide", after: "Join #engineering" },
    });
    expect(await markdown(ONBOARDING)).toContain("Slack\n- [ ] Read the API Style Guide\n- [ ] Set up");
    await ok("API-update-page-markdown", {
      page_id: ONBOARDING,
      type: "replace_content_range",
      replace_content_range: { content: "## Week 1 (remote)", content_range: "## Week...1" },
    });
    expect(await markdown(ONBOARDING)).toContain("## Week 1 (remote)\n1. Pair");
    expect((await server.check("block_appended", { page_id: ONBOARDING, text_contains: "API Style Guide" })).pass).toBe(
      true,
    );
  });

  it("replace_content refuses to drop child pages unless allowed", async () => {
    const refused = await server.call("API-update-page-markdown", {
      page_id: WIKI,
      type: "replace_content",
      replace_content: { new_str: "# Wiki\nFresh start" },
    });
    expect(refused).toMatchObject(toolError("allow_deleting_content"));
    await ok("API-update-page-markdown", {
      page_id: WIKI,
      type: "replace_content",
      replace_content: JSON.stringify({ new_str: "# Wiki\nFresh start", allow_deleting_content: true }),
    });
    expect(await markdown(WIKI)).toBe("# Wiki\nFresh start");
    expect(await ok("API-retrieve-a-page", { page_id: ONBOARDING })).toMatchObject({ in_trash: true });
  });
});

describe("notion mock: databases and data sources", () => {
  const query = async (body: Json) =>
    (await ok("API-query-data-source", { data_source_id: TASKS.data_source_id, ...body })).results as Json[];

  it("retrieves the database container and its data source schema", async () => {
    const database = await ok("API-retrieve-a-database", { database_id: TASKS.id });
    expect(database.data_sources).toEqual([{ id: TASKS.data_source_id, name: "Tasks" }]);
    const source = await ok("API-retrieve-a-data-source", { data_source_id: TASKS.data_source_id });
    expect(Object.keys(source.properties as Json)).toEqual([
      "Name",
      "Status",
      "Assignee",
      "Due",
      "Priority",
      "Tags",
      "Estimate",
    ]);
    expect(source.properties.Status.status.options.map((option: Json) => option.name)).toEqual([
      "Not started",
      "In progress",
      "Blocked",
      "Done",
    ]);
  });

  it("filters with compound conditions on people, dates, numbers and multi-selects", async () => {
    const bobOpen = await query({
      filter: {
        and: [
          { property: "Assignee", people: { contains: userId("bob") } },
          { property: "Status", status: { does_not_equal: "Done" } },
        ],
      },
      sorts: [{ property: "Due", direction: "ascending" }],
    });
    expect(names(bobOpen)).toEqual(["Add cursor pagination to /v2/orders", "Search reindex job"]);
    const dueThisWeek = await query({ filter: { property: "Due", date: { on_or_before: "2026-03-20" } } });
    expect(dueThisWeek).toHaveLength(9);
    const big = await query({
      filter: {
        or: [
          { property: "Estimate", number: { greater_than_or_equal_to: 5 } },
          { property: "Tags", multi_select: { contains: "incident" } },
        ],
      },
    });
    expect(names(big).sort()).toEqual([
      "Add cursor pagination to /v2/orders",
      "Billing settings page redesign",
      "Connection pool saturation alert",
      "Search reindex job",
      "Write postmortem for Mar 14 latency incident",
    ]);
    const unassigned = await query({ filter: { property: "Assignee", people: { is_empty: true } } });
    expect(names(unassigned)).toEqual(["Connection pool saturation alert"]);
  });

  it("sorts by status option order and pages results", async () => {
    const sorted = await query({ sorts: [{ property: "Status", direction: "descending" }], page_size: 3 });
    expect(sorted.map((row) => row.properties.Status.status.name)).toEqual(["Done", "Done", "Blocked"]);
  });

  it("rejects a filter whose type does not match the property, and unknown properties", async () => {
    const mismatch = await server.call("API-query-data-source", {
      data_source_id: TASKS.data_source_id,
      filter: { property: "Status", select: { equals: "Done" } },
    });
    expect(mismatch).toMatchObject(toolError("database property status does not match filter select"));
    const unknown = await server.call("API-query-data-source", {
      data_source_id: TASKS.data_source_id,
      filter: { property: "Owner", people: { contains: "x" } },
    });
    expect(unknown).toMatchObject(toolError("Could not find property with name or id: Owner"));
  });

  it("updates a data source schema: adds, renames and removes properties on every row", async () => {
    const updated = await ok("API-update-a-data-source", {
      data_source_id: DOCS.data_source_id,
      title: [{ text: { content: "Docs & RFCs" } }],
      properties: { Reviewer: { people: {} }, Summary: { name: "Abstract" }, "Last reviewed": null },
    });
    expect(Object.keys(updated.properties as Json).sort()).toEqual([
      "Abstract",
      "Name",
      "Owner",
      "Reviewer",
      "Status",
      "Type",
    ]);
    const row = await ok("API-retrieve-a-page", { page_id: rowId("Runbook: Database failover") });
    expect(row.properties.Abstract.rich_text[0].plain_text).toContain("Promote the replica");
    expect(row.properties.Reviewer).toMatchObject({ type: "people", people: [] });
  });

  it("creates a data source (with its database) under a page, and lists templates", async () => {
    const created = await ok("API-create-a-data-source", {
      parent: { page_id: WIKI },
      title: [{ text: { content: "On-call log" } }],
      properties: {
        Name: { title: {} },
        Severity: { select: { options: [{ name: "SEV1" }, { name: "SEV2" }] } },
        Date: { date: {} },
      },
    });
    expect(created.parent).toMatchObject({ type: "database_id" });
    const row = await ok("API-post-page", {
      parent: { database_id: created.parent.database_id },
      properties: {
        Name: { title: [{ text: { content: "Mar 14 latency" } }] },
        Severity: { select: { name: "SEV2" } },
      },
    });
    expect(row.properties.Severity.select.name).toBe("SEV2");
    const noTitle = await server.call("API-create-a-data-source", {
      parent: { page_id: WIKI },
      properties: { Date: { date: {} } },
    });
    expect(noTitle).toMatchObject(toolError("title property"));

    const templates = await ok("API-list-data-source-templates", { data_source_id: TASKS.data_source_id });
    expect(templates.templates).toEqual([
      expect.objectContaining({ name: "Bug report", is_default: false }),
      expect.objectContaining({ name: "Task", is_default: true }),
    ]);
  });
});
