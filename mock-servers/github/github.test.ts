import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { specViolations } from "../kit/testing/index.ts";
import { githubServer } from "./server.ts";
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
import surface from "./tool-surface.json" with { type: "json" };

let server: GithubTestServer;
beforeEach(async () => {
  server = await openGithub();
});
afterEach(async () => {
  await server.close();
});

describe("github mock: surface", () => {
  it("follows the kit's spec rules", () => {
    expect(specViolations(githubServer)).toEqual([]);
  });

  it("lists exactly the 43 tools of the real server's default surface, each with the reference inputSchema", async () => {
    const listed = (await server.client.listTools()).tools;
    expect(listed).toHaveLength(43);
    expect(new Set(listed.map((tool) => tool.name))).toEqual(new Set(surface.tools.map((tool) => tool.name)));
    for (const reference of surface.tools) {
      const tool = listed.find((candidate) => candidate.name === reference.name)!;
      expect(tool.inputSchema, reference.name).toEqual(reference.inputSchema);
      expect(tool.annotations?.readOnlyHint, reference.name).toBe(reference.readOnly);
    }
  });

  it("equals the shared machine-readable reference plus the four properties it lost (title, description)", () => {
    // fixtures/github-default-tools.json (a copy of ../shared/reference/github-default-tools.json) dropped
    // every property named `title` or `description` (schema annotation names); mcp-tools.md lists them.
    const restored: Record<string, string> = {
      issue_write: "title",
      create_pull_request: "title",
      update_pull_request: "title",
      create_repository: "description",
    };
    const referenceFile = new URL("fixtures/github-default-tools.json", import.meta.url);
    const reference = JSON.parse(readFileSync(referenceFile, "utf8")) as typeof surface;
    expect(surface.tools.map((tool) => tool.name)).toEqual(reference.tools.map((tool) => tool.name));
    for (const ours of surface.tools) {
      const theirs = structuredClone(reference.tools.find((tool) => tool.name === ours.name)!);
      const extra = restored[ours.name];
      if (extra) (theirs.inputSchema.properties as Record<string, unknown>)[extra] = { type: "string" };
      expect(ours.inputSchema, ours.name).toEqual(theirs.inputSchema);
    }
  });

  it("marks deletes, merges and overwrites destructive and creates/comments not", () => {
    const destructive = (name: string) =>
      githubServer.tools.find((tool) => tool.name === name)!.annotations.destructiveHint;
    for (const name of [
      "delete_file",
      "delete_repository",
      "merge_pull_request",
      "create_or_update_file",
      "push_files",
      "issue_write",
    ]) {
      expect(destructive(name), name).toBe(true);
    }
    for (const name of [
      "add_issue_comment",
      "create_pull_request",
      "create_branch",
      "create_repository",
      "fork_repository",
    ]) {
      expect(destructive(name), name).toBe(false);
    }
  });

  it("refuses a missing required parameter with -32602 naming it, and a wrong enum value", async () => {
    const missing = await server.call("issue_read", { owner: "acme", repo: "webapp", method: "get" });
    expect(missing).toMatchObject({ kind: "rpc_error", code: -32602, data: { missing: ["issue_number"] } });
    expect(missing.kind === "rpc_error" && missing.message).toContain("missing required parameter: issue_number");

    const badEnum = await server.call("list_issues", { ...WEBAPP, state: "open" });
    expect(badEnum).toMatchObject({ kind: "rpc_error", code: -32602 });
    expect(badEnum.kind === "rpc_error" && badEnum.message).toContain("must be one of OPEN, CLOSED");
  });

  it("answers an unknown repository, issue and pull request like the real API", async () => {
    expect(await toolError(server, "list_issues", { owner: "acme", repo: "nope" })).toBe(
      "not_found: Not Found: repository acme/nope does not exist",
    );
    expect(await toolError(server, "issue_read", { ...WEBAPP, method: "get", issue_number: 999 })).toContain(
      "issue #999 does not exist in acme/webapp",
    );
    expect(await toolError(server, "pull_request_read", { ...WEBAPP, method: "get", pullNumber: 2 })).toContain(
      "#2 is an issue, not a pull request",
    );
  });
});

interface HappyCall {
  tool: string;
  /** Static arguments, or a setup that prepares state and returns them. */
  args: Record<string, unknown> | ((server: GithubTestServer) => Promise<Record<string, unknown>>);
  expect: (data: Json) => void;
}

const names = (items: Json[], key = "name") => items.map((item) => item[key]);

const HAPPY: HappyCall[] = [
  {
    tool: "get_me",
    args: {},
    expect: (d) => expect(d).toMatchObject({ login: "alice", details: { name: "Alice Chen" } }),
  },
  {
    tool: "get_teams",
    args: {},
    expect: (d) => expect(names(d.organizations[0].teams, "slug")).toEqual(["frontend", "backend", "platform"]),
  },
  {
    tool: "get_team_members",
    args: { org: "acme", team_slug: "backend" },
    expect: (d) => expect(d.members).toEqual(["alice", "carol", "dave"]),
  },
  {
    tool: "get_file_contents",
    args: { ...WEBAPP, path: "README.md" },
    expect: (d) =>
      expect(d).toMatchObject({ type: "file", path: "README.md", content: expect.stringContaining("# Acme Webapp") }),
  },
  {
    tool: "create_or_update_file",
    args: { ...WEBAPP, path: "docs/FAQ.md", content: "# FAQ\n", message: "Add FAQ", branch: "main" },
    expect: (d) => expect(d).toMatchObject({ content: { path: "docs/FAQ.md" }, commit: { message: "Add FAQ" } }),
  },
  {
    tool: "delete_file",
    args: { ...WEBAPP, path: "CONTRIBUTING.md", message: "Move contributing guide", branch: "main" },
    expect: (d) => expect(d.commit.sha).toMatch(/^[0-9a-f]{40}$/),
  },
  {
    tool: "push_files",
    args: {
      ...WEBAPP,
      branch: "feature/dark-mode",
      message: "Add icons",
      files: [
        { path: "src/icons/sun.svg", content: "<svg/>" },
        { path: "src/icons/moon.svg", content: "<svg/>" },
      ],
    },
    expect: (d) => expect(names(d.files, "path")).toEqual(["src/icons/sun.svg", "src/icons/moon.svg"]),
  },
  {
    tool: "create_branch",
    args: { ...WEBAPP, branch: "fix/204-no-content" },
    expect: (d) => expect(d.ref).toBe("refs/heads/fix/204-no-content"),
  },
  {
    tool: "list_branches",
    args: { ...API },
    expect: (d) => expect(names(d.branches)).toContain("feature/jwt-refresh"),
  },
  {
    tool: "list_commits",
    args: { ...WEBAPP, perPage: 2 },
    expect: (d) => expect(d.commits[0].commit.message).toBe("Prepare v1.2.0-rc.1"),
  },
  {
    tool: "get_commit",
    args: { ...WEBAPP, sha: "v1.0.0" },
    expect: (d) =>
      expect(d).toMatchObject({
        commit: { message: "Release v1.0.0" },
        stats: { additions: 8, deletions: 1, total: 9 },
      }),
  },
  {
    tool: "list_tags",
    args: { ...WEBAPP },
    expect: (d) => expect(names(d.tags)).toEqual(["v1.2.0-rc.1", "v1.1.0", "v1.0.0"]),
  },
  {
    tool: "get_tag",
    args: { ...WEBAPP, tag: "v1.1.0" },
    expect: (d) => expect(d).toMatchObject({ tag: "v1.1.0", message: "Local time zones and contrast fixes" }),
  },
  {
    tool: "list_releases",
    args: { ...WEBAPP },
    expect: (d) => expect(names(d.releases, "tag_name")).toEqual(["v1.2.0", "v1.2.0-rc.1", "v1.1.0", "v1.0.0"]),
  },
  { tool: "get_latest_release", args: { ...WEBAPP }, expect: (d) => expect(d.tag_name).toBe("v1.1.0") },
  {
    tool: "get_release_by_tag",
    args: { ...API, tag: "v1.0.0" },
    expect: (d) => expect(d.body).toContain("rate limiting"),
  },
  {
    tool: "create_repository",
    args: { name: "billing-widgets", organization: "acme", autoInit: true },
    expect: (d) =>
      expect(d).toMatchObject({ full_name: "acme/billing-widgets", private: true, default_branch: "main" }),
  },
  {
    tool: "fork_repository",
    args: { ...STOREFRONT },
    expect: (d) => expect(d).toMatchObject({ full_name: "alice/storefront", fork: true, parent: "globex/storefront" }),
  },
  {
    tool: "delete_repository",
    args: { owner: "alice", repo: "advent-of-code-2025" },
    expect: (d) => expect(d.deleted).toBe("alice/advent-of-code-2025"),
  },
  {
    tool: "list_repository_collaborators",
    args: { ...WEBAPP, affiliation: "outside" },
    expect: (d) => expect(d.collaborators).toEqual([expect.objectContaining({ login: "ivan", permission: "triage" })]),
  },
  {
    tool: "search_repositories",
    args: { query: "topic:python" },
    expect: (d) => expect(names(d.items, "full_name")).toEqual(["alice/advent-of-code-2025", "globex/sdk-python"]),
  },
  {
    tool: "search_code",
    args: { query: "sleep language:python" },
    expect: (d) =>
      expect(d.items.map((i: Json) => `${i.repository.full_name}:${i.path}`)).toEqual([
        "globex/sdk-python:globex/retry.py",
      ]),
  },
  {
    tool: "search_commits",
    args: { query: "timeout repo:acme/api" },
    expect: (d) =>
      expect(
        names(
          d.items.map((i: Json) => i.commit),
          "message",
        ),
      ).toEqual(["Lower statement timeout to 5s"]),
  },
  {
    tool: "list_issues",
    args: { ...API, state: "OPEN", labels: ["bug"] },
    expect: (d) => expect(names(d.issues, "number")).toEqual([1, 3]),
  },
  {
    tool: "issue_read",
    args: { ...API, method: "get", issue_number: 3 },
    expect: (d) => expect(d.issue).toMatchObject({ title: "Postgres pool exhausted under load test", comments: 3 }),
  },
  {
    tool: "issue_write",
    args: {
      ...WEBAPP,
      method: "create",
      title: "Login fails on Safari",
      body: "Blank page after submit.",
      labels: ["bug"],
    },
    expect: (d) =>
      expect(d).toMatchObject({
        number: 19,
        state: "open",
        labels: ["bug"],
        html_url: "https://github.com/acme/webapp/issues/19",
      }),
  },
  {
    tool: "add_issue_comment",
    args: { ...WEBAPP, issue_number: 16, body: "I'll take this one." },
    expect: (d) => expect(d.comment).toMatchObject({ body: "I'll take this one.", user: { login: "alice" } }),
  },
  {
    tool: "sub_issue_write",
    args: async (s) => ({ ...WEBAPP, method: "add", issue_number: 6, sub_issue_id: await issueId(s, WEBAPP, 5) }),
    expect: (d) => expect(names(d.sub_issues, "number")).toEqual([7, 8, 11, 5]),
  },
  {
    tool: "search_issues",
    args: { query: "pool", owner: "acme", repo: "api" },
    expect: (d) => expect(names(d.items, "number")).toEqual([3]),
  },
  {
    tool: "get_label",
    args: { ...WEBAPP, name: "good first issue" },
    expect: (d) => expect(d).toMatchObject({ name: "good first issue", color: "7057ff" }),
  },
  {
    tool: "list_issue_types",
    args: { owner: "acme" },
    expect: (d) => expect(names(d.issue_types)).toEqual(["Bug", "Feature", "Task"]),
  },
  {
    tool: "list_issue_fields",
    args: { owner: "acme", repo: "webapp" },
    expect: (d) => expect(names(d.fields)).toEqual(["Priority", "Estimate", "Target date"]),
  },
  {
    tool: "list_pull_requests",
    args: { ...WEBAPP },
    expect: (d) => expect(names(d.pull_requests, "number")).toEqual([15, 10, 12]),
  },
  {
    tool: "pull_request_read",
    args: { ...WEBAPP, method: "get_files", pullNumber: 10 },
    expect: (d) =>
      expect(names(d.files, "filename")).toEqual([
        "src/components/LoginForm.tsx",
        "src/hooks/useAuth.test.ts",
        "src/hooks/useAuth.ts",
      ]),
  },
  {
    tool: "create_pull_request",
    args: { ...API, title: "Refresh token endpoint", head: "feature/jwt-refresh", base: "main", reviewers: ["carol"] },
    expect: (d) =>
      expect(d).toMatchObject({
        number: 14,
        head: "feature/jwt-refresh",
        base: "main",
        requested_reviewers: ["carol"],
      }),
  },
  {
    tool: "update_pull_request",
    args: { ...WEBAPP, pullNumber: 15, draft: false },
    expect: (d) => expect(d).toMatchObject({ number: 15, draft: false }),
  },
  {
    tool: "merge_pull_request",
    args: { ...API, pullNumber: 9, merge_method: "squash" },
    expect: (d) => expect(d).toMatchObject({ merged: true, message: "Pull Request successfully merged" }),
  },
  {
    tool: "update_pull_request_branch",
    args: { ...WEBAPP, pullNumber: 12 },
    expect: (d) => expect(d.message).toBe("Updating pull request branch."),
  },
  {
    tool: "pull_request_review_write",
    args: {
      ...WEBAPP,
      method: "create",
      pullNumber: 12,
      event: "REQUEST_CHANGES",
      body: "Please fix the lint error first.",
    },
    expect: (d) => expect(d.review).toMatchObject({ state: "CHANGES_REQUESTED", user: { login: "alice" } }),
  },
  {
    tool: "add_comment_to_pending_review",
    args: async (s) => {
      await s.ok("pull_request_review_write", { ...WEBAPP, method: "create", pullNumber: 10 });
      return {
        ...WEBAPP,
        pullNumber: 10,
        path: "src/hooks/useAuth.ts",
        body: "Should this also clear the token?",
        subjectType: "LINE",
        line: 20,
      };
    },
    expect: (d) => expect(d.comment).toMatchObject({ pending: true, body: "Should this also clear the token?" }),
  },
  {
    tool: "add_reply_to_pull_request_comment",
    args: async (s) => {
      const threads = (
        (await s.ok("pull_request_read", { ...WEBAPP, method: "get_review_comments", pullNumber: 10 })) as Json
      ).review_threads;
      return {
        ...WEBAPP,
        pullNumber: 10,
        commentId: threads[1].comments[0].id,
        body: "Good idea, follow-up issue coming.",
      };
    },
    expect: (d) => expect(d.comment).toMatchObject({ body: "Good idea, follow-up issue coming.", pending: false }),
  },
  {
    tool: "search_pull_requests",
    args: { query: "author:bob is:merged" },
    expect: (d) => expect(d.items.map((i: Json) => i.html_url)).toEqual(["https://github.com/acme/webapp/pull/9"]),
  },
  {
    tool: "search_users",
    args: { query: "location:berlin" },
    expect: (d) => expect(names(d.items, "login")).toEqual(["frank"]),
  },
];

describe("github mock: every tool answers a realistic call", () => {
  it("covers all 43 tools", () => {
    expect(new Set(HAPPY.map((call) => call.tool))).toEqual(new Set(surface.tools.map((tool) => tool.name)));
  });

  it.each(HAPPY.map((call) => [call.tool, call] as const))("%s", async (_name, call) => {
    const args = typeof call.args === "function" ? await call.args(server) : call.args;
    call.expect((await server.ok(call.tool, args)) as Json);
  });
});

describe("github mock: determinism and reset", () => {
  it("starts every server in the same state and replays writes to the same shas and ids", async () => {
    const other = await openGithub();
    expect(await other.dump()).toEqual(await server.dump());
    const write = { ...WEBAPP, path: "NOTES.md", content: "notes\n", message: "Add notes", branch: "main" };
    const first = (await server.ok("create_or_update_file", write)) as Json;
    const second = (await other.ok("create_or_update_file", write)) as Json;
    expect(second.commit.sha).toBe(first.commit.sha);
    const issue = { ...API, method: "create", title: "Same id" };
    expect(await other.ok("issue_write", issue)).toEqual(await server.ok("issue_write", issue));
    await other.close();
  });

  it("returns to the fixture state on __reset", async () => {
    const fresh = await server.dump();
    await server.ok("issue_write", { ...WEBAPP, method: "create", title: "Temporary" });
    await server.ok("merge_pull_request", { ...API, pullNumber: 9 });
    expect(await server.dump()).not.toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
  });

  it("gives fixture commits stable 40-hex shas dated before the fixed clock", async () => {
    const commits = ((await server.ok("list_commits", { ...API, perPage: 100 })) as Json).commits as Json[];
    expect(commits.length).toBeGreaterThan(8);
    for (const commit of commits) {
      expect(commit.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(commit.commit.author.date < "2026-03-16").toBe(true);
    }
  });
});
