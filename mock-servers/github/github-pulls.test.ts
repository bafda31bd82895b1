import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API,
  DOCS,
  type GithubTestServer,
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

type Repo = { owner: string; repo: string };
const numbers = (items: Json[]) => items.map((item) => item.number);
const list = async (args: Record<string, unknown>, repo: Repo = WEBAPP) =>
  numbers(((await server.ok("list_pull_requests", { ...repo, ...args })) as Json).pull_requests);
const read = async (method: string, pullNumber: number, repo: Repo = WEBAPP, extra: Record<string, unknown> = {}) =>
  (await server.ok("pull_request_read", { ...repo, method, pullNumber, ...extra })) as Json;
const review = (args: Record<string, unknown>, repo: Repo = WEBAPP) =>
  server.ok("pull_request_review_write", { ...repo, ...args }) as Promise<Json>;
const mainLog = async (repo: Repo) =>
  ((await server.ok("list_commits", { ...repo, perPage: 3 })) as Json).commits as Json[];

describe("list_pull_requests", () => {
  it("filters by state, head and base and sorts like the REST API", async () => {
    expect(await list({})).toEqual([15, 10, 12]);
    expect(await list({ state: "closed" })).toEqual([13, 9]);
    expect(await list({ state: "all" })).toHaveLength(5);
    expect(await list({ head: "acme:fix/login-redirect" })).toEqual([10]);
    expect(await list({ state: "all", base: "release/1.1" })).toEqual([]);
    expect(await list({ sort: "long-running" })).toEqual([12, 10, 15]);
    expect(await list({ sort: "created", direction: "asc", perPage: 1, page: 2 })).toEqual([10]);
  });
});

describe("pull_request_read", () => {
  it("reports mergeability the way GitHub does", async () => {
    const state = async (number: number, repo: Repo = WEBAPP) =>
      (await read("get", number, repo)).pull_request.mergeable_state;
    expect(await state(10)).toBe("behind");
    expect(await state(12)).toBe("unstable");
    expect(await state(15)).toBe("draft");
    expect(await state(10, API)).toBe("dirty");
    expect(await state(9, API)).toBe("clean");
    expect((await read("get", 9)).pull_request).toMatchObject({
      merged: true,
      mergeable: null,
      merged_by: { login: "alice" },
      changed_files: 1,
    });
  });

  it("returns the diff, files, commits, status and checks of the head", async () => {
    const diff = (await read("get_diff", 10)).diff as string;
    expect(diff).toContain("diff --git a/src/hooks/useAuth.ts b/src/hooks/useAuth.ts");
    expect(diff).toContain('+    if (window.location.pathname === "/login") return;');
    expect(diff).toContain("new file mode 100644\nindex 0000000..");
    const files = (await read("get_files", 10)).files as Json[];
    expect(files.find((file) => file.filename === "src/hooks/useAuth.test.ts")).toMatchObject({
      status: "added",
      additions: 16,
      deletions: 0,
    });
    expect(((await read("get_commits", 10)).commits as Json[]).map((c) => c.commit.message)).toEqual([
      "Stop redirect loop when the session expires",
      "Add regression test for expired-session redirect",
    ]);
    expect((await read("get_status", 12)).status).toMatchObject({ state: "failure", total_count: 2 });
    const checks = (await read("get_check_runs", 12)).check_runs as Json[];
    expect(checks.map((check) => `${check.name}:${check.conclusion}`)).toEqual(["ci/test:success", "ci/lint:failure"]);
    expect((await read("get_files", 9)).files.map((file: Json) => file.filename)).toEqual(["src/utils/format.ts"]);
  });

  it("lists reviews, conversation comments and review threads with a cursor", async () => {
    expect(((await read("get_reviews", 10)).reviews as Json[]).map((r) => `${r.user.login}:${r.state}`)).toEqual([
      "carol:CHANGES_REQUESTED",
      "dave:COMMENTED",
      "carol:APPROVED",
    ]);
    expect((await read("get_comments", 10)).comments[0].body).toBe("Verified on staging, the loop is gone.");
    const first = await read("get_review_comments", 10, WEBAPP, { perPage: 1 });
    expect(first.review_threads[0]).toMatchObject({
      path: "src/hooks/useAuth.ts",
      is_resolved: true,
      comments: [{}, { in_reply_to_id: first.review_threads[0].comments[0].id }],
    });
    const second = await read("get_review_comments", 10, WEBAPP, { perPage: 1, after: first.pageInfo.endCursor });
    expect(second.review_threads[0]).toMatchObject({ path: "src/components/LoginForm.tsx", is_resolved: false });
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe("create_pull_request", () => {
  it("opens a PR from an existing head into an existing base, numbered after the highest issue or PR", async () => {
    await server.ok("create_branch", { ...DOCS, branch: "docs/webhooks" });
    await server.ok("push_files", {
      ...DOCS,
      branch: "docs/webhooks",
      message: "Add webhooks page",
      files: [{ path: "docs/api/webhooks.md", content: "# Webhooks\n" }],
    });
    const created = (await server.ok("create_pull_request", {
      ...DOCS,
      title: "Webhooks page",
      head: "docs/webhooks",
      base: "main",
      draft: true,
    })) as Json;
    expect(created).toMatchObject({ number: 10, draft: true, user: "alice" });
    expect(await list({}, DOCS)).toEqual([10, 6]);
    const api = (await server.ok("create_pull_request", {
      ...API,
      title: "Refresh tokens",
      head: "feature/jwt-refresh",
      base: "main",
    })) as Json;
    expect((await read("get_files", api.number, API)).files.map((f: Json) => f.filename)).toEqual([
      "src/routes/auth.ts",
    ]);
  });

  it("refuses missing branches, duplicates, empty ranges, bad reviewers and repos without push access", async () => {
    expect(
      await toolError(server, "create_pull_request", { ...WEBAPP, title: "x", head: "feature/nope", base: "main" }),
    ).toContain("branch feature/nope does not exist in acme/webapp");
    expect(
      await toolError(server, "create_pull_request", { ...WEBAPP, title: "x", head: "main", base: "main" }),
    ).toContain("must be different branches");
    expect(
      await toolError(server, "create_pull_request", {
        ...WEBAPP,
        title: "x",
        head: "fix/login-redirect",
        base: "main",
      }),
    ).toContain("a pull request already exists for acme:fix/login-redirect (#10)");
    expect(
      await toolError(server, "create_pull_request", { ...WEBAPP, title: "x", head: "release/1.1", base: "main" }),
    ).toContain("no commits between main and release/1.1");
    expect(
      await toolError(server, "create_pull_request", {
        ...API,
        title: "x",
        head: "feature/jwt-refresh",
        base: "main",
        reviewers: ["alice"],
      }),
    ).toContain("cannot be requested from the pull request author");
    expect(
      await toolError(server, "create_pull_request", {
        ...API,
        title: "x",
        head: "feature/jwt-refresh",
        base: "main",
        reviewers: ["frank"],
      }),
    ).toContain("frank is not a collaborator");
    expect(
      await toolError(server, "create_pull_request", {
        ...STOREFRONT,
        title: "x",
        head: "fix/cart-discounts",
        base: "main",
      }),
    ).toContain("Forbidden");
  });
});

describe("merge_pull_request", () => {
  it("merges with a merge commit, moves the base branch and closes the issues the PR fixes", async () => {
    const result = (await server.ok("merge_pull_request", {
      ...WEBAPP,
      pullNumber: 10,
      commit_message: "Thanks Bob!",
    })) as Json;
    const [tip] = await mainLog(WEBAPP);
    expect(tip).toMatchObject({
      sha: result.sha,
      commit: { message: "Merge pull request #10 from acme/fix/login-redirect\n\nThanks Bob!" },
    });
    expect(tip!.parents).toHaveLength(2);
    expect((await server.ok("get_file_contents", { ...WEBAPP, path: "src/hooks/useAuth.test.ts" })).type).toBe("file");
    expect((await read("get", 10)).pull_request).toMatchObject({
      state: "closed",
      merged: true,
      merge_commit_sha: result.sha,
      merged_at: "2026-03-16T09:30:00Z",
    });
    expect(
      ((await server.ok("issue_read", { ...WEBAPP, method: "get", issue_number: 2 })) as Json).issue,
    ).toMatchObject({ state: "closed", state_reason: "completed" });
    expect(await toolError(server, "merge_pull_request", { ...WEBAPP, pullNumber: 10 })).toContain(
      "Pull Request is not mergeable: #10 was already merged",
    );
  });

  it("squashes into one commit titled after the PR, or replays the commits on rebase", async () => {
    await server.ok("merge_pull_request", { ...API, pullNumber: 9, merge_method: "squash" });
    const [squashed] = await mainLog(API);
    expect(squashed).toMatchObject({
      commit: { message: "Skip OPTIONS preflight requests in rate limiter (#9)" },
      parents: [{}],
    });
    expect(((await server.ok("issue_read", { ...API, method: "get", issue_number: 1 })) as Json).issue.state).toBe(
      "closed",
    );

    const before = (await mainLog(DOCS))[0]!.sha;
    await server.ok("merge_pull_request", { ...DOCS, pullNumber: 6, merge_method: "rebase" });
    const [replayed] = await mainLog(DOCS);
    expect(replayed).toMatchObject({ commit: { message: "Document refresh token flow" }, parents: [{ sha: before }] });
  });

  it("refuses closed, draft, conflicting, unapproved and failing PRs, and repos without push access", async () => {
    const refusal = (repo: Repo, pullNumber: number) =>
      toolError(server, "merge_pull_request", { ...repo, pullNumber });
    expect(await refusal(WEBAPP, 9)).toContain("#9 was already merged");
    expect(await refusal(WEBAPP, 13)).toContain("#13 is closed");
    expect(await refusal(WEBAPP, 15)).toContain("still a draft");
    expect(await refusal(API, 10)).toContain("merge conflict in src/db/pool.ts");
    expect(await refusal(WEBAPP, 12)).toContain("At least 1 approving review is required");
    await review({ method: "create", pullNumber: 12, event: "APPROVE" });
    expect(await refusal(WEBAPP, 12)).toContain('Required status check "ci/lint" is failing');
    expect(await refusal(STOREFRONT, 3)).toContain("Forbidden: alice needs push access to globex/storefront");
  });
});

describe("update_pull_request and update_pull_request_branch", () => {
  it("edits, closes and reopens a PR, but never reopens a merged one", async () => {
    expect(
      await server.ok("update_pull_request", {
        ...WEBAPP,
        pullNumber: 12,
        state: "closed",
        title: "Dark mode (superseded)",
      }),
    ).toMatchObject({
      state: "closed",
      title: "Dark mode (superseded)",
    });
    expect(await list({})).toEqual([15, 10]);
    expect(await server.ok("update_pull_request", { ...WEBAPP, pullNumber: 12, state: "open" })).toMatchObject({
      state: "open",
    });
    expect(
      await server.ok("update_pull_request", { ...WEBAPP, pullNumber: 10, base: "release/1.1", reviewers: ["dave"] }),
    ).toMatchObject({
      base: "release/1.1",
      requested_reviewers: ["dave"],
    });
    expect(await toolError(server, "update_pull_request", { ...WEBAPP, pullNumber: 9, state: "open" })).toContain(
      "#9 is already merged",
    );
    expect(await toolError(server, "update_pull_request", { ...WEBAPP, pullNumber: 12 })).toContain(
      "nothing to update",
    );
  });

  it("merges the base into the head branch once, guarded by expectedHeadSha", async () => {
    const head = (await read("get", 12)).pull_request.head.sha as string;
    expect(
      await toolError(server, "update_pull_request_branch", {
        ...WEBAPP,
        pullNumber: 12,
        expectedHeadSha: "0".repeat(40),
      }),
    ).toContain("didn't match current head ref");
    const updated = (await server.ok("update_pull_request_branch", {
      ...WEBAPP,
      pullNumber: 12,
      expectedHeadSha: head,
    })) as Json;
    const commit = (await server.ok("get_commit", { ...WEBAPP, sha: updated.head_sha, detail: "none" })) as Json;
    expect(commit).toMatchObject({ commit: { message: "Merge branch 'main' into feature/dark-mode" } });
    expect(commit.parents.map((p: Json) => p.sha)[0]).toBe(head);
    expect((await read("get_files", 12)).files.map((f: Json) => f.filename)).toEqual([
      "src/components/Navbar.tsx",
      "src/styles/theme.css",
    ]);
    expect(await toolError(server, "update_pull_request_branch", { ...WEBAPP, pullNumber: 12 })).toContain(
      "no new commits on the base branch",
    );
    expect(await toolError(server, "update_pull_request_branch", { ...API, pullNumber: 10 })).toContain(
      "merge conflict between base and head (src/db/pool.ts)",
    );
  });
});

describe("reviews", () => {
  it("submits verdicts with GitHub's rules and drops the reviewer from the requested list", async () => {
    expect((await review({ method: "create", pullNumber: 12, event: "APPROVE" })).review.state).toBe("APPROVED");
    expect((await read("get", 12)).pull_request.requested_reviewers.map((u: Json) => u.login)).toEqual(["carol"]);
    expect(
      await toolError(server, "pull_request_review_write", {
        ...WEBAPP,
        method: "create",
        pullNumber: 15,
        event: "APPROVE",
      }),
    ).toContain("Can not approve your own pull request");
    expect(
      await toolError(server, "pull_request_review_write", {
        ...WEBAPP,
        method: "create",
        pullNumber: 10,
        event: "COMMENT",
      }),
    ).toContain("a body is required");
    expect(
      await toolError(server, "pull_request_review_write", {
        ...WEBAPP,
        method: "create",
        pullNumber: 10,
        event: "APPROVE",
        commitID: "abc1234",
      }),
    ).toContain("is not part of pull request #10");
  });

  it("builds a pending review with line comments, then submits it", async () => {
    expect(
      await toolError(server, "add_comment_to_pending_review", {
        ...WEBAPP,
        pullNumber: 10,
        path: "src/hooks/useAuth.ts",
        body: "x",
        subjectType: "FILE",
      }),
    ).toContain("no pending review");
    expect((await review({ method: "create", pullNumber: 10, body: "A few notes" })).review.state).toBe("PENDING");
    expect(
      await toolError(server, "pull_request_review_write", { ...WEBAPP, method: "create", pullNumber: 10 }),
    ).toContain("already have a pending review");
    expect(
      await toolError(server, "add_comment_to_pending_review", {
        ...WEBAPP,
        pullNumber: 10,
        path: "README.md",
        body: "x",
        subjectType: "FILE",
      }),
    ).toContain("path README.md could not be resolved");
    expect(
      await toolError(server, "add_comment_to_pending_review", {
        ...WEBAPP,
        pullNumber: 10,
        path: "src/hooks/useAuth.ts",
        body: "x",
        subjectType: "LINE",
      }),
    ).toBe("invalid_argument: missing required parameter: line");
    await server.ok("add_comment_to_pending_review", {
      ...WEBAPP,
      pullNumber: 10,
      path: "src/hooks/useAuth.test.ts",
      body: "Also cover the /login path.",
      subjectType: "FILE",
    });
    expect(
      await toolError(server, "pull_request_review_write", { ...WEBAPP, method: "submit_pending", pullNumber: 10 }),
    ).toBe("invalid_argument: missing required parameter: event");
    expect((await review({ method: "submit_pending", pullNumber: 10, event: "COMMENT" })).review).toMatchObject({
      state: "COMMENTED",
      body: "A few notes",
    });
    const threads = (await read("get_review_comments", 10)).review_threads as Json[];
    expect(threads.at(-1)).toMatchObject({
      path: "src/hooks/useAuth.test.ts",
      subject_type: "FILE",
      comments: [{ pending: false, body: "Also cover the /login path." }],
    });
  });

  it("deletes a pending review with its comments", async () => {
    await review({ method: "create", pullNumber: 12 });
    await server.ok("add_comment_to_pending_review", {
      ...WEBAPP,
      pullNumber: 12,
      path: "src/styles/theme.css",
      body: "Nice palette",
      subjectType: "LINE",
      line: 20,
    });
    expect((await read("get_review_comments", 12)).total_count).toBe(2);
    expect(await review({ method: "delete_pending", pullNumber: 12 })).toMatchObject({
      message: "pending review deleted",
    });
    expect((await read("get_review_comments", 12)).total_count).toBe(1);
    expect(
      await toolError(server, "pull_request_review_write", { ...WEBAPP, method: "delete_pending", pullNumber: 12 }),
    ).toContain("no pending review");
  });

  it("resolves and unresolves review threads by id", async () => {
    const threadId = (await read("get_review_comments", 10)).review_threads[1].id as string;
    expect(threadId).toMatch(/^PRRT_kwDO/);
    expect((await review({ method: "resolve_thread", pullNumber: 10, threadId })).thread).toEqual({
      id: threadId,
      is_resolved: true,
    });
    expect((await review({ method: "unresolve_thread", pullNumber: 10, threadId })).thread.is_resolved).toBe(false);
    expect(
      await toolError(server, "pull_request_review_write", { ...WEBAPP, method: "resolve_thread", pullNumber: 10 }),
    ).toBe("invalid_argument: missing required parameter: threadId");
    expect(
      await toolError(server, "pull_request_review_write", {
        ...WEBAPP,
        method: "resolve_thread",
        pullNumber: 10,
        threadId: "PRRT_nope",
      }),
    ).toContain("review thread PRRT_nope does not exist");
  });

  it("replies to and reacts on a review comment", async () => {
    const root = (await read("get_review_comments", 12)).review_threads[0].comments[0].id as number;
    const reply = (await server.ok("add_reply_to_pull_request_comment", {
      ...WEBAPP,
      commentId: root,
      body: "Fixed, thanks.",
      reaction: "+1",
    })) as Json;
    expect(reply.comment).toMatchObject({ in_reply_to_id: root, body: "Fixed, thanks." });
    expect(reply.reaction).toMatchObject({ content: "+1", comment_id: root });
    const thread = (await read("get_review_comments", 12)).review_threads[0];
    expect(thread.comments.map((c: Json) => c.body)).toEqual([
      "`useEffect` is imported but never used — that's what fails lint.",
      "Fixed, thanks.",
    ]);
    expect(await toolError(server, "add_reply_to_pull_request_comment", { ...WEBAPP, commentId: 12345 })).toContain(
      "review comment 12345 does not exist",
    );
    expect(await toolError(server, "add_reply_to_pull_request_comment", { ...WEBAPP, commentId: root })).toBe(
      "invalid_argument: missing required parameter: body",
    );
  });
});

describe("search_pull_requests", () => {
  it("matches PR qualifiers such as review state, draft and base", async () => {
    const search = async (query: string) =>
      ((await server.ok("search_pull_requests", { query })) as Json).items.map((item: Json) =>
        item.html_url.replace("https://github.com/", ""),
      );
    expect(await search("review:approved is:open")).toEqual([
      "acme/api/pull/9",
      "globex/storefront/pull/3",
      "acme/webapp/pull/10",
    ]);
    expect(await search("is:draft")).toEqual(["acme/webapp/pull/15"]);
    expect(await search("is:unmerged org:acme")).toEqual(["acme/api/pull/12", "acme/webapp/pull/13"]);
    expect(await search("review-requested:alice")).toEqual(["acme/docs/pull/6", "acme/webapp/pull/12"]);
    // the token is alice's: @me is alice in every user qualifier
    expect(await search("review-requested:@me")).toEqual(["acme/docs/pull/6", "acme/webapp/pull/12"]);
    expect(await search("reviewed-by:@me")).toEqual(await search("reviewed-by:alice"));
  });
});
