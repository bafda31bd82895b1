import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { githubServer } from "./server.ts";
import { API, DOCS, type GithubTestServer, issueId, type Json, openGithub, WEBAPP } from "./test-helpers.ts";

let server: GithubTestServer;
beforeEach(async () => {
  server = await openGithub();
});
afterEach(async () => {
  await server.close();
});

interface CheckCase {
  check: string;
  args: Record<string, unknown> | ((server: GithubTestServer) => Promise<Record<string, unknown>>);
  /** The write that makes the check pass. */
  write: (server: GithubTestServer) => Promise<unknown>;
}

const secondThreadOf10 = async (s: GithubTestServer) =>
  ((await s.ok("pull_request_read", { ...WEBAPP, method: "get_review_comments", pullNumber: 10 })) as Json)
    .review_threads[1].id as string;

const CASES: CheckCase[] = [
  {
    check: "issue_exists",
    args: { ...WEBAPP, title: "login fails on  Safari", labels: ["bug"], body_contains: "blank page" },
    write: (s) =>
      s.ok("issue_write", {
        ...WEBAPP,
        method: "create",
        title: "Login fails on Safari",
        body: "Blank page after submit.",
        labels: ["bug"],
      }),
  },
  {
    check: "issue_state",
    args: { ...WEBAPP, issue_number: 5, state: "closed", state_reason: "not_planned" },
    write: (s) =>
      s.ok("issue_write", {
        ...WEBAPP,
        method: "update",
        issue_number: 5,
        state: "closed",
        state_reason: "not_planned",
      }),
  },
  {
    check: "issue_matches",
    args: {
      ...WEBAPP,
      issue_number: 11,
      labels: ["help wanted"],
      assignees: ["bob"],
      field_values: { Priority: "P1" },
    },
    write: (s) =>
      s.ok("issue_write", {
        ...WEBAPP,
        method: "update",
        issue_number: 11,
        labels: ["bug", "help wanted"],
        assignees: ["bob"],
        issue_fields: [{ field_name: "Priority", field_option_name: "P1" }],
      }),
  },
  {
    check: "issue_has_comment",
    args: { ...WEBAPP, issue_number: 16, body_contains: "take this" },
    write: (s) => s.ok("add_issue_comment", { ...WEBAPP, issue_number: 16, body: "I'll take this one." }),
  },
  {
    check: "reaction_added",
    args: { ...WEBAPP, issue_number: 4, content: "rocket" },
    write: (s) => s.ok("add_issue_comment", { ...WEBAPP, issue_number: 4, reaction: "rocket" }),
  },
  {
    check: "sub_issue_linked",
    args: { ...WEBAPP, parent_number: 6, sub_issue_number: 5, position: 3 },
    write: async (s) =>
      s.ok("sub_issue_write", { ...WEBAPP, method: "add", issue_number: 6, sub_issue_id: await issueId(s, WEBAPP, 5) }),
  },
  {
    check: "pr_exists",
    args: { ...API, head: "feature/jwt-refresh", base: "main", state: "open" },
    write: (s) =>
      s.ok("create_pull_request", { ...API, title: "Refresh tokens", head: "feature/jwt-refresh", base: "main" }),
  },
  {
    check: "pr_matches",
    args: { ...WEBAPP, pullNumber: 12, up_to_date: true },
    write: (s) => s.ok("update_pull_request_branch", { ...WEBAPP, pullNumber: 12 }),
  },
  {
    check: "pr_merged",
    args: { ...API, pullNumber: 9 },
    write: (s) => s.ok("merge_pull_request", { ...API, pullNumber: 9 }),
  },
  {
    check: "pr_review_exists",
    args: { ...WEBAPP, pullNumber: 12, state: "approved" },
    write: (s) => s.ok("pull_request_review_write", { ...WEBAPP, method: "create", pullNumber: 12, event: "APPROVE" }),
  },
  {
    check: "pr_review_comment_exists",
    args: { ...WEBAPP, pullNumber: 10, body_contains: "clear the token", path: "src/hooks/useAuth.ts" },
    write: async (s) => {
      await s.ok("pull_request_review_write", { ...WEBAPP, method: "create", pullNumber: 10 });
      return s.ok("add_comment_to_pending_review", {
        ...WEBAPP,
        pullNumber: 10,
        path: "src/hooks/useAuth.ts",
        body: "Should this clear the token?",
        subjectType: "LINE",
        line: 20,
      });
    },
  },
  {
    check: "thread_resolved",
    args: async (s) => ({ ...WEBAPP, threadId: await secondThreadOf10(s) }),
    write: async (s) =>
      s.ok("pull_request_review_write", {
        ...WEBAPP,
        method: "resolve_thread",
        pullNumber: 10,
        threadId: await secondThreadOf10(s),
      }),
  },
  {
    check: "branch_exists",
    args: { ...WEBAPP, branch: "fix/204-no-content", from: "main" },
    write: (s) => s.ok("create_branch", { ...WEBAPP, branch: "fix/204-no-content" }),
  },
  {
    check: "file_contains",
    args: { ...DOCS, path: "docs/api/webhooks.md", text: "invoice.paid" },
    write: (s) =>
      s.ok("create_or_update_file", {
        ...DOCS,
        path: "docs/api/webhooks.md",
        content: "# Webhooks\n\n- invoice.paid\n",
        message: "Add webhooks page",
        branch: "main",
      }),
  },
  {
    check: "file_absent",
    args: { ...WEBAPP, path: "CONTRIBUTING.md" },
    write: (s) =>
      s.ok("delete_file", { ...WEBAPP, path: "CONTRIBUTING.md", message: "Remove contributing guide", branch: "main" }),
  },
  {
    check: "commit_exists",
    args: { ...WEBAPP, branch: "feature/dark-mode", message_contains: "unused import" },
    write: (s) =>
      s.ok("push_files", {
        ...WEBAPP,
        branch: "feature/dark-mode",
        message: "Remove unused import",
        files: [{ path: "src/x.ts", content: "x" }],
      }),
  },
  {
    check: "repo_exists",
    args: { owner: "alice", repo: "scratch", private: true },
    write: (s) => s.ok("create_repository", { name: "scratch" }),
  },
  {
    check: "repo_absent",
    args: { owner: "alice", repo: "dotfiles" },
    write: (s) => s.ok("delete_repository", { owner: "alice", repo: "dotfiles" }),
  },
];

describe("github mock: state checks", () => {
  it("has a case for every check", () => {
    expect(CASES.map((entry) => entry.check).sort()).toEqual(Object.keys(githubServer.checks).sort());
  });

  it.each(CASES.map((entry) => [entry.check, entry] as const))(
    "%s fails before the write and passes after it",
    async (_name, entry) => {
      const args = typeof entry.args === "function" ? await entry.args(server) : entry.args;
      const before = await server.check(entry.check, args);
      expect(before.pass, before.detail).toBe(false);
      await entry.write(server);
      const after = await server.check(entry.check, args);
      expect(after.pass, after.detail).toBe(true);
    },
  );

  it("explains a failure in terms the dataset author can act on", async () => {
    expect(await server.check("issue_exists", { owner: "acme", repo: "nope", title: "x" })).toEqual({
      expect: "issue_exists",
      pass: false,
      detail: "repository acme/nope does not exist",
    });
    expect((await server.check("issue_exists", { ...WEBAPP, title: "Add dark mode", state: "closed" })).detail).toBe(
      "issues with that title do not match: #4: state is open",
    );
    expect((await server.check("pr_merged", { ...WEBAPP, pullNumber: 12 })).detail).toBe("#12 is open and not merged");
    expect(
      (await server.check("sub_issue_linked", { ...WEBAPP, parent_number: 6, sub_issue_number: 8, linked: false }))
        .pass,
    ).toBe(false);
  });
});
