import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API,
  type GithubTestServer,
  issueId,
  type Json,
  openGithub,
  STOREFRONT,
  toolError,
  WEBAPP,
} from "./test-helpers.ts";

let server: GithubTestServer;
beforeEach(async () => {
  server = await openGithub();
});
afterEach(async () => {
  await server.close();
});

const numbers = (items: Json[]) => items.map((item) => item.number);
const listIssues = async (args: Record<string, unknown>) =>
  (await server.ok("list_issues", { ...WEBAPP, ...args })) as Json;
const read = async (method: string, issue_number: number, extra: Record<string, unknown> = {}) =>
  (await server.ok("issue_read", { ...WEBAPP, method, issue_number, ...extra })) as Json;
const write = async (args: Record<string, unknown>) => (await server.ok("issue_write", { ...WEBAPP, ...args })) as Json;

describe("list_issues", () => {
  it("filters by upper-case state and by any of the labels, newest first", async () => {
    expect((await listIssues({})).totalCount).toBe(13);
    expect(numbers((await listIssues({ state: "CLOSED" })).issues)).toEqual([18, 3, 8, 17, 1]);
    expect(numbers((await listIssues({ state: "OPEN", labels: ["good first issue", "help wanted"] })).issues)).toEqual([
      16, 5, 7,
    ]);
    expect(numbers((await listIssues({ since: "2026-03-01T00:00:00Z" })).issues)).toEqual([16]);
    expect(numbers((await listIssues({ field_filters: [{ field_name: "priority", value: "P2" }] })).issues)).toEqual([
      14, 6,
    ]);
  });

  it("orders by comments or creation in either direction", async () => {
    expect(numbers((await listIssues({ orderBy: "COMMENTS", direction: "DESC", perPage: 1 })).issues)).toEqual([2]);
    expect(numbers((await listIssues({ orderBy: "CREATED_AT", direction: "ASC", perPage: 2 })).issues)).toEqual([
      1, 17,
    ]);
  });

  it("pages with the endCursor of the previous page until hasNextPage is false", async () => {
    const seen: number[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const data = await listIssues({ perPage: 5, ...(after ? { after } : {}) });
      seen.push(...numbers(data.issues));
      if (!data.pageInfo.hasNextPage) break;
      after = data.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(13);
    expect(new Set(seen).size).toBe(13);
    expect(await toolError(server, "list_issues", { ...WEBAPP, after: "not-a-cursor" })).toContain(
      "not a valid cursor",
    );
  });

  it("keeps only the requested fields", async () => {
    const data = await listIssues({ perPage: 1, fields: ["number", "title"] });
    expect(data.issues).toEqual([{ number: 16, title: "App crashes when the API returns 204 No Content" }]);
  });
});

describe("issue_read", () => {
  it("reads comments page by page, labels with colors, parent and sub-issues", async () => {
    expect((await read("get_comments", 2, { perPage: 1, page: 2 })).comments).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ login: "bob" }),
        body: expect.stringContaining("Fix incoming in #10"),
      }),
    ]);
    expect((await read("get_labels", 16)).labels).toEqual([
      { name: "bug", color: "d73a4a", description: "Something isn't working" },
      { name: "help wanted", color: "008672", description: "Extra attention is needed" },
    ]);
    expect((await read("get_parent", 7)).parent).toMatchObject({ number: 6, title: "Epic: Q1 accessibility audit" });
    expect((await read("get_parent", 5)).parent).toBeNull();
    expect(numbers((await read("get_sub_issues", 6)).sub_issues)).toEqual([7, 8, 11]);
    expect((await read("get", 6)).issue.sub_issues_summary).toEqual({ total: 3, completed: 1, percent_completed: 33 });
  });

  it("answers for a pull request number like the issues API does", async () => {
    expect((await read("get", 10)).issue).toMatchObject({
      title: "Fix login redirect loop after session expiry",
      pull_request: { html_url: expect.stringContaining("/pull/10") },
    });
    expect(await toolError(server, "issue_read", { ...WEBAPP, method: "get_sub_issues", issue_number: 10 })).toContain(
      "is a pull request",
    );
  });
});

describe("issue_write", () => {
  it("creates issues with labels, assignees, milestone, type and custom fields; numbers continue after the highest", async () => {
    const created = await write({
      method: "create",
      title: "Add a status page link to the footer",
      body: "Link status.acme.dev",
      labels: ["Enhancement"],
      assignees: ["erin", "ivan"],
      milestone: 1,
      type: "feature",
      issue_fields: [
        { field_name: "Priority", field_option_name: "P3" },
        { field_name: "Estimate", value: 2 },
      ],
    });
    expect(created).toMatchObject({
      number: 19,
      labels: ["enhancement"],
      assignees: ["erin", "ivan"],
      milestone: 1,
      type: "Feature",
    });
    expect((await read("get", 19)).issue).toMatchObject({
      user: { login: "alice" },
      field_values: { Priority: "P3", Estimate: 2 },
      created_at: "2026-03-16T09:30:00Z",
    });
    expect((await write({ method: "create", title: "Second" })).number).toBe(20);
    expect((await server.ok("issue_write", { ...API, method: "create", title: "In api" })).number).toBe(14);
  });

  it("refuses what GitHub refuses on create", async () => {
    expect(await toolError(server, "issue_write", { ...WEBAPP, method: "create", body: "no title" })).toBe(
      "invalid_argument: missing required parameter: title",
    );
    expect(
      await toolError(server, "issue_write", { ...WEBAPP, method: "create", title: "x", labels: ["urgent"] }),
    ).toContain('label "urgent" does not exist');
    expect(
      await toolError(server, "issue_write", { ...WEBAPP, method: "create", title: "x", assignees: ["frank"] }),
    ).toContain("frank cannot be assigned");
    expect(await toolError(server, "issue_write", { ...WEBAPP, method: "create", title: "x", type: "Epic" })).toContain(
      "available: Bug, Feature, Task",
    );
    expect(
      await toolError(server, "issue_write", {
        owner: "alice",
        repo: "dotfiles",
        method: "create",
        title: "x",
        type: "Bug",
      }),
    ).toContain("alice is a user");
    expect(
      await toolError(server, "issue_write", {
        ...WEBAPP,
        method: "create",
        title: "x",
        issue_fields: [{ field_name: "Priority", value: "P5" }],
      }),
    ).toContain("not an option of Priority");
    expect(await toolError(server, "issue_write", { ...WEBAPP, method: "create", title: "x", milestone: 9 })).toContain(
      "milestone 9 does not exist",
    );
  });

  it("closes with a reason, reopens, and marks duplicates", async () => {
    expect(
      await write({ method: "update", issue_number: 5, state: "closed", state_reason: "not_planned" }),
    ).toMatchObject({ state: "closed", state_reason: "not_planned" });
    expect((await read("get", 5)).issue.closed_at).toBe("2026-03-16T09:30:00Z");
    expect(await write({ method: "update", issue_number: 5, state: "open" })).toMatchObject({
      state: "open",
      state_reason: "reopened",
    });
    expect(
      await toolError(server, "issue_write", {
        ...WEBAPP,
        method: "update",
        issue_number: 16,
        state: "closed",
        state_reason: "duplicate",
      }),
    ).toBe("invalid_argument: missing required parameter: duplicate_of");
    await write({ method: "update", issue_number: 16, state: "closed", state_reason: "duplicate", duplicate_of: 2 });
    expect((await read("get", 16)).issue).toMatchObject({
      state: "closed",
      state_reason: "duplicate",
      duplicate_of: 2,
    });
    expect(
      await toolError(server, "issue_write", {
        ...WEBAPP,
        method: "update",
        issue_number: 11,
        state_reason: "completed",
      }),
    ).toContain('pass state="closed" too');
  });

  it("replaces labels and assignees, edits title, and needs issue_number and rights to update", async () => {
    expect(
      await write({
        method: "update",
        issue_number: 11,
        title: "Focus lost after closing settings modal",
        labels: ["bug", "help wanted"],
        assignees: ["bob"],
      }),
    ).toMatchObject({
      title: "Focus lost after closing settings modal",
      labels: ["bug", "help wanted"],
      assignees: ["bob"],
    });
    expect(await toolError(server, "issue_write", { ...WEBAPP, method: "update", title: "x" })).toBe(
      "invalid_argument: missing required parameter: issue_number",
    );
    expect(
      await toolError(server, "issue_write", { ...STOREFRONT, method: "update", issue_number: 1, state: "closed" }),
    ).toContain("Forbidden: alice needs triage access");
    // anyone may open an issue on a public repository
    expect(
      (await server.ok("issue_write", { ...STOREFRONT, method: "create", title: "Typo on the cart page" })).number,
    ).toBe(5);
  });
});

describe("add_issue_comment", () => {
  it("comments on issues and pull requests and reacts to the issue or to a comment", async () => {
    const pr = (await server.ok("add_issue_comment", {
      ...WEBAPP,
      issue_number: 12,
      body: "Rebased on main?",
    })) as Json;
    expect(pr.url).toMatch(/\/pull\/12#issuecomment-\d+$/);
    const reacted = (await server.ok("add_issue_comment", { ...WEBAPP, issue_number: 4, reaction: "rocket" })) as Json;
    expect(reacted.reaction).toMatchObject({ content: "rocket", subject: "issue" });
    expect((await read("get", 4)).issue.reactions).toMatchObject({ total_count: 5, rocket: 1 });
    const commentId = (await read("get_comments", 2)).comments[0].id;
    await server.ok("add_issue_comment", { ...WEBAPP, issue_number: 2, comment_id: commentId, reaction: "heart" });
    expect((await read("get_comments", 2)).comments[0].reactions.heart).toBe(1);
  });

  it("needs a body or a reaction, and comment_id only with a reaction", async () => {
    expect(await toolError(server, "add_issue_comment", { ...WEBAPP, issue_number: 2 })).toBe(
      "invalid_argument: missing required parameter: body",
    );
    expect(
      await toolError(server, "add_issue_comment", { ...WEBAPP, issue_number: 2, comment_id: 5, body: "x" }),
    ).toContain("only used together with reaction");
    expect(
      await toolError(server, "add_issue_comment", { ...WEBAPP, issue_number: 2, comment_id: 5, reaction: "eyes" }),
    ).toContain("comment 5 does not exist");
  });
});

describe("sub_issue_write", () => {
  it("adds, reprioritizes and removes sub-issues by issue ID", async () => {
    const id = (n: number) => issueId(server, WEBAPP, n);
    const sub = async (args: Record<string, unknown>) =>
      numbers(((await server.ok("sub_issue_write", { ...WEBAPP, issue_number: 6, ...args })) as Json).sub_issues);
    expect(await sub({ method: "add", sub_issue_id: await id(5) })).toEqual([7, 8, 11, 5]);
    expect(await sub({ method: "reprioritize", sub_issue_id: await id(5), before_id: await id(7) })).toEqual([
      5, 7, 8, 11,
    ]);
    expect(await sub({ method: "reprioritize", sub_issue_id: await id(7), after_id: await id(11) })).toEqual([
      5, 8, 11, 7,
    ]);
    expect(await sub({ method: "remove", sub_issue_id: await id(8) })).toEqual([5, 11, 7]);
    expect((await read("get_parent", 8)).parent).toBeNull();
  });

  it("moves a sub-issue to a new parent only with replace_parent", async () => {
    const seven = await issueId(server, WEBAPP, 7);
    expect(
      await toolError(server, "sub_issue_write", { ...WEBAPP, method: "add", issue_number: 14, sub_issue_id: seven }),
    ).toContain("already has a parent issue (#6)");
    await server.ok("sub_issue_write", {
      ...WEBAPP,
      method: "add",
      issue_number: 14,
      sub_issue_id: seven,
      replace_parent: true,
    });
    expect((await read("get_parent", 7)).parent.number).toBe(14);
    expect(numbers((await read("get_sub_issues", 6)).sub_issues)).toEqual([8, 11]);
  });

  it("explains the number-versus-ID mistake and refuses unknown methods", async () => {
    const five = await issueId(server, WEBAPP, 5);
    expect(
      await toolError(server, "sub_issue_write", { ...WEBAPP, method: "add", issue_number: 6, sub_issue_id: 5 }),
    ).toContain(`sub_issue_id is an issue ID, not a number — issue #5 has ID ${five}`);
    expect(
      await toolError(server, "sub_issue_write", { ...WEBAPP, method: "delete", issue_number: 6, sub_issue_id: five }),
    ).toContain("must be one of add, remove, reprioritize");
    expect(
      await toolError(server, "sub_issue_write", {
        ...WEBAPP,
        method: "reprioritize",
        issue_number: 6,
        sub_issue_id: await issueId(server, WEBAPP, 7),
      }),
    ).toContain("exactly one of after_id or before_id");
  });
});

describe("search_issues and labels", () => {
  const search = async (query: string, extra: Record<string, unknown> = {}) =>
    ((await server.ok("search_issues", { query, ...extra })) as Json).items.map(
      (item: Json) => `${item.repository}#${item.number}`,
    );

  it("matches words and qualifiers across the visible repositories", async () => {
    expect(await search("login is:open")).toEqual(["acme/webapp#2"]);
    expect(await search("label:bug is:open org:acme", { sort: "comments", order: "desc" })).toEqual([
      "acme/api#3",
      "acme/webapp#2",
      "acme/webapp#16",
      "acme/docs#7",
      "acme/api#1",
      "acme/docs#1",
      "acme/webapp#11",
    ]);
    expect(await search("author:@me is:open no:assignee")).toEqual([
      "acme/docs#5",
      "acme/api#8",
      "acme/webapp#5",
      "acme/api#4",
    ]);
    expect(await search("type:Bug is:closed repo:acme/api")).toEqual(["acme/api#11"]);
    expect(await search("reason:not_planned")).toEqual(["acme/docs#8", "acme/webapp#17"]);
    expect(await search("redirect in:title", { owner: "acme", repo: "webapp" })).toEqual(["acme/webapp#2"]);
  });

  it("refuses an unknown repository and a repo without owner", async () => {
    expect(await toolError(server, "search_issues", { query: "bug repo:acme/nope" })).toContain(
      "acme/nope does not exist",
    );
    expect(await toolError(server, "search_issues", { query: "bug", repo: "webapp" })).toContain(
      "owner is required when repo is given",
    );
  });

  it("finds labels by name and lists issue types and fields for organizations only", async () => {
    expect(await toolError(server, "get_label", { ...WEBAPP, name: "urgent" })).toContain(
      'label "urgent" does not exist in acme/webapp',
    );
    expect(await toolError(server, "list_issue_types", { owner: "alice" })).toContain(
      "only available for organizations; alice is a user",
    );
    expect(await toolError(server, "list_issue_fields", { owner: "acme", repo: "nope" })).toContain(
      "acme/nope does not exist",
    );
  });
});
