import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API,
  DOCS,
  fileSha,
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
const get = async (args: Record<string, unknown>, repo: Repo = WEBAPP) =>
  (await server.ok("get_file_contents", { ...repo, ...args })) as Json;
const messages = async (args: Record<string, unknown>, repo: Repo = WEBAPP) =>
  (((await server.ok("list_commits", { ...repo, ...args })) as Json).commits as Json[]).map(
    (c) => c.commit.message.split("\n")[0],
  );

describe("get_file_contents", () => {
  it("lists directories and reads files at a branch, tag or commit", async () => {
    const src = await get({ path: "src/", fields: ["name", "type"] });
    expect(src.entries).toEqual(
      expect.arrayContaining([
        { name: "api", type: "dir" },
        { name: "App.tsx", type: "file" },
        { name: "main.tsx", type: "file" },
      ]),
    );
    expect(src.entries).toHaveLength(8);
    expect((await get({ path: "src/utils/format.ts", ref: "v1.0.0" })).content).toContain("toISOString()");
    expect((await get({ path: "src/utils/format.ts" })).content).toContain("Intl.DateTimeFormat");
    expect((await get({ path: "src/styles/theme.css", ref: "refs/heads/feature/dark-mode" })).content).toContain(
      '[data-theme="dark"]',
    );
    const v1 = ((await server.ok("list_tags", WEBAPP)) as Json).tags.find((t: Json) => t.name === "v1.0.0").commit
      .sha as string;
    expect((await get({ path: "CHANGELOG.md", sha: v1.slice(0, 7), ref: "main" })).content).not.toContain("1.1.0");
  });

  it("refuses unknown paths and refs", async () => {
    expect(await toolError(server, "get_file_contents", { ...WEBAPP, path: "src/nope.ts" })).toBe(
      "not_found: Not Found: src/nope.ts does not exist in acme/webapp at main",
    );
    expect(await toolError(server, "get_file_contents", { ...WEBAPP, path: "README.md", ref: "develop" })).toContain(
      "no commit found for ref develop",
    );
  });
});

describe("file writes", () => {
  it("creates a file whose sha is the real git blob sha", async () => {
    const created = (await server.ok("create_or_update_file", {
      ...DOCS,
      path: "docs/hello.md",
      content: "hello\n",
      message: "Add hello",
      branch: "main",
    })) as Json;
    expect(created.content.sha).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    expect(await fileSha(server, DOCS, "docs/hello.md")).toBe(created.content.sha);
    expect(created.commit).toMatchObject({ message: "Add hello", author: { login: "alice" } });
  });

  it("updates an existing file only with its current sha, as the contents API does", async () => {
    const write = {
      ...WEBAPP,
      path: "README.md",
      content: "# Acme Webapp\n\nNew intro.\n",
      message: "Rewrite README",
      branch: "main",
    };
    expect(await toolError(server, "create_or_update_file", write)).toContain('"sha" wasn\'t supplied');
    expect(
      await toolError(server, "create_or_update_file", { ...write, sha: "1111111111111111111111111111111111111111" }),
    ).toContain("conflict: Conflict: README.md does not match 1111111111111111111111111111111111111111");
    const sha = await fileSha(server, WEBAPP, "README.md");
    await server.ok("create_or_update_file", { ...write, sha });
    expect((await get({ path: "README.md" })).content).toBe("# Acme Webapp\n\nNew intro.\n");
    expect(await toolError(server, "create_or_update_file", { ...write, sha })).toContain("does not match");
    expect(await toolError(server, "create_or_update_file", { ...write, branch: "develop" })).toContain(
      "branch develop does not exist",
    );
    expect(await toolError(server, "create_or_update_file", { ...write, path: "src" })).toContain("src is a directory");
    expect(
      await toolError(server, "create_or_update_file", {
        ...STOREFRONT,
        path: "x.md",
        content: "x",
        message: "x",
        branch: "main",
      }),
    ).toContain("Forbidden: alice needs push access to globex/storefront");
  });

  it("deletes a file on one branch while history keeps it", async () => {
    await server.ok("delete_file", {
      ...WEBAPP,
      path: "docs/ARCHITECTURE.md",
      message: "Remove outdated architecture doc",
      branch: "main",
    });
    expect(await toolError(server, "get_file_contents", { ...WEBAPP, path: "docs/ARCHITECTURE.md" })).toContain(
      "does not exist",
    );
    expect((await get({ path: "docs/ARCHITECTURE.md", ref: "v1.2.0-rc.1" })).type).toBe("file");
    expect(
      await toolError(server, "delete_file", {
        ...WEBAPP,
        path: "docs/ARCHITECTURE.md",
        message: "again",
        branch: "main",
      }),
    ).toContain("docs/ARCHITECTURE.md does not exist on main");
  });

  it("pushes several files as one commit", async () => {
    const files = [
      { path: "docs/api/webhooks.md", content: "# Webhooks\n" },
      { path: "docs/api/rate-limits.md", content: "# Rate limits\n\n120 requests per minute.\n" },
    ];
    await server.ok("push_files", { ...DOCS, branch: "main", message: "Add webhooks and rate limit pages", files });
    expect(await messages({ perPage: 1 }, DOCS)).toEqual(["Add webhooks and rate limit pages"]);
    const commit = (await server.ok("get_commit", { ...DOCS, sha: "main" })) as Json;
    expect(commit.files.map((f: Json) => `${f.status}:${f.filename}`)).toEqual([
      "added:docs/api/rate-limits.md",
      "added:docs/api/webhooks.md",
    ]);
    expect(await toolError(server, "push_files", { ...DOCS, branch: "main", message: "empty", files: [] })).toContain(
      "at least one",
    );
  });
});

describe("branches, commits, tags and releases", () => {
  it("creates branches from the default or a named branch and refuses duplicates and bad names", async () => {
    const created = (await server.ok("create_branch", {
      ...WEBAPP,
      branch: "hotfix/csv",
      from_branch: "feature/csv-export",
    })) as Json;
    const branches = ((await server.ok("list_branches", { ...WEBAPP, perPage: 100 })) as Json).branches as Json[];
    expect(branches.find((b) => b.name === "hotfix/csv")!.commit.sha).toBe(created.sha);
    expect(branches.find((b) => b.name === "main")!.protected).toBe(true);
    expect(await toolError(server, "create_branch", { ...WEBAPP, branch: "main" })).toContain(
      "Reference already exists",
    );
    expect(await toolError(server, "create_branch", { ...WEBAPP, branch: "my branch" })).toContain(
      "not a valid branch name",
    );
    expect(await toolError(server, "create_branch", { ...WEBAPP, branch: "x", from_branch: "develop" })).toContain(
      "branch develop does not exist",
    );
    expect(
      ((await server.ok("list_branches", { ...WEBAPP, perPage: 2, page: 2 })) as Json).branches.map(
        (b: Json) => b.name,
      ),
    ).toEqual(["feature/dark-mode", "fix/login-redirect"]);
  });

  it("filters the log by author, path, dates and start ref", async () => {
    expect(await messages({ author: "bob" })).toEqual([
      "Format dashboard dates in the user's time zone (#9)",
      "Add dashboard page with activity table",
      "Add login form and session handling",
    ]);
    expect(await messages({ author: "carol@acme.dev" })).toEqual([
      "Retry idempotent API requests once on 502/503",
      "Add typed API client with auth header",
    ]);
    expect(await messages({ path: "src/utils" })).toEqual([
      "Format dashboard dates in the user's time zone (#9)",
      "Add dashboard page with activity table",
    ]);
    expect(await messages({ since: "2026-01-01", until: "2026-02-28" })).toEqual([
      "Retry idempotent API requests once on 502/503",
      "Update React to 18.3 and TypeScript to 5.6",
    ]);
    expect((await messages({ sha: "feature/dark-mode", perPage: 2 }))[0]).toBe("Add theme toggle to navbar");
    const trimmed = ((await server.ok("list_commits", { ...WEBAPP, perPage: 1, fields: ["sha"] })) as Json).commits;
    expect(Object.keys(trimmed[0])).toEqual(["sha"]);
  });

  it("gets a commit by short sha with stats or full patches", async () => {
    const sha = ((await server.ok("list_commits", { ...API, path: "src/db/pool.ts", perPage: 1 })) as Json).commits[0]
      .sha as string;
    const none = (await server.ok("get_commit", { ...API, sha: sha.slice(0, 7), detail: "none" })) as Json;
    expect(none).toMatchObject({ sha, commit: { message: "Lower statement timeout to 5s" } });
    expect(none.stats).toBeUndefined();
    const full = (await server.ok("get_commit", { ...API, sha, detail: "full_patch" })) as Json;
    expect(full.stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    expect(full.files[0].patch).toContain("-  statement_timeout: 30_000,\n+  statement_timeout: 5_000,");
    expect(await toolError(server, "get_commit", { ...API, sha: "deadbeef" })).toContain(
      "no commit found for ref deadbeef",
    );
  });

  it("reads tags and releases, hiding none from a maintainer and failing where there are none", async () => {
    expect(await toolError(server, "get_tag", { ...WEBAPP, tag: "v9" })).toContain("tags: v1.2.0-rc.1, v1.1.0, v1.0.0");
    expect(await toolError(server, "get_latest_release", DOCS)).toContain("acme/docs has no published releases");
    expect(await toolError(server, "get_release_by_tag", { ...WEBAPP, tag: "v0.9.0" })).toContain(
      "no release with tag v0.9.0",
    );
    const trimmed = (
      (await server.ok("list_releases", { ...WEBAPP, perPage: 2, fields: ["tag_name", "prerelease"] })) as Json
    ).releases;
    expect(trimmed).toEqual([
      { tag_name: "v1.2.0", prerelease: false },
      { tag_name: "v1.2.0-rc.1", prerelease: true },
    ]);
    expect(((await server.ok("get_latest_release", STOREFRONT)) as Json).name).toBe("Storefront 2.0");
  });
});

describe("repositories", () => {
  it("creates private repositories by default, empty unless autoInit", async () => {
    const created = (await server.ok("create_repository", { name: "scratch" })) as Json;
    expect(created).toMatchObject({
      full_name: "alice/scratch",
      private: true,
      visibility: "private",
      owner: { login: "alice" },
    });
    expect(await toolError(server, "get_file_contents", { owner: "alice", repo: "scratch" })).toContain(
      "alice/scratch is empty",
    );
    expect(await toolError(server, "create_repository", { name: "dotfiles" })).toContain(
      "name already exists on this account",
    );
    expect(await toolError(server, "create_repository", { name: "x", organization: "globex" })).toContain(
      "alice is not a member of globex",
    );
    expect(await toolError(server, "create_repository", { name: "x", organization: "bob" })).toContain(
      "bob is a user, not an organization",
    );
    expect(await toolError(server, "create_repository", { name: "bad name!" })).toContain(
      "not a valid repository name",
    );
    await server.ok("create_repository", { name: "site", private: false, autoInit: true });
    expect((await get({ path: "README.md" }, { owner: "alice", repo: "site" })).content).toBe("# site\n");
  });

  it("forks with history into the viewer's account or an org, once", async () => {
    const fork = (await server.ok("fork_repository", STOREFRONT)) as Json;
    expect(fork).toMatchObject({ full_name: "alice/storefront", fork: true, parent: "globex/storefront" });
    expect((await server.ok("fork_repository", STOREFRONT)).id).toBe(fork.id);
    expect(
      (await get({ path: "lib/cart.ts", ref: "fix/cart-discounts" }, { owner: "alice", repo: "storefront" })).content,
    ).toContain("WELCOME10");
    await server.ok("create_or_update_file", {
      owner: "alice",
      repo: "storefront",
      path: "NOTES.md",
      content: "mine",
      message: "notes",
      branch: "main",
    });
    expect((await server.ok("fork_repository", { ...STOREFRONT, organization: "acme" })).full_name).toBe(
      "acme/storefront",
    );
    expect(await toolError(server, "fork_repository", { owner: "alice", repo: "dotfiles" })).toContain(
      "cannot be forked into its own account",
    );
    const search = (await server.ok("search_repositories", {
      query: "storefront fork:true",
      minimal_output: false,
    })) as Json;
    expect(search.items.map((r: Json) => `${r.full_name}:${r.forks_count}`)).toEqual([
      "globex/storefront:43",
      "alice/storefront:0",
      "acme/storefront:0",
    ]);
  });

  it("deletes only with admin rights", async () => {
    expect(await toolError(server, "delete_repository", STOREFRONT)).toContain(
      "Forbidden: alice needs admin access to globex/storefront",
    );
    await server.ok("delete_repository", DOCS);
    expect(await toolError(server, "list_issues", DOCS)).toBe(
      "not_found: Not Found: repository acme/docs does not exist",
    );
  });

  it("lists collaborators by affiliation with push access only", async () => {
    const logins = async (affiliation: string) =>
      (
        ((await server.ok("list_repository_collaborators", { ...WEBAPP, affiliation })) as Json).collaborators as Json[]
      ).map((c) => `${c.login}:${c.permission}`);
    expect(await logins("all")).toEqual([
      "alice:admin",
      "bob:maintain",
      "carol:push",
      "dave:admin",
      "erin:maintain",
      "ivan:triage",
    ]);
    expect(await logins("direct")).toEqual(["ivan:triage"]);
    expect(await toolError(server, "list_repository_collaborators", STOREFRONT)).toContain("Forbidden");
  });
});

describe("search", () => {
  const fullNames = async (query: string, extra: Record<string, unknown> = {}) =>
    ((await server.ok("search_repositories", { query, ...extra })) as Json).items.map((item: Json) => item.full_name);

  it("finds repositories by words and qualifiers", async () => {
    expect(await fullNames("billing")).toEqual(["acme/webapp", "acme/api", "acme/docs"]);
    expect(await fullNames("stars:>100", { sort: "stars" })).toEqual(["globex/storefront", "acme/webapp"]);
    expect(await fullNames("user:alice", { sort: "updated", order: "asc" })).toEqual([
      "alice/advent-of-code-2025",
      "alice/dotfiles",
    ]);
    expect(await fullNames("is:private")).toEqual(["acme/api"]);
    expect(await fullNames("language:python org:globex")).toEqual(["globex/sdk-python"]);
  });

  it("searches code on default branches with file qualifiers and text fragments", async () => {
    const code = async (query: string) =>
      ((await server.ok("search_code", { query })) as Json).items.map(
        (item: Json) => `${item.repository.full_name}:${item.path}`,
      );
    expect(await code("filename:package.json vite")).toEqual(["acme/webapp:package.json", "acme/api:package.json"]);
    expect(await code("filename:package.json docusaurus")).toEqual(["acme/docs:package.json"]);
    expect(await code("apiFetch path:src/api repo:acme/webapp")).toEqual(["acme/webapp:src/api/client.ts"]);
    expect(await code("WELCOME10")).toEqual([]);
    const hit = (
      (await server.ok("search_code", { query: "statement_timeout", fields: ["path", "text_matches"] })) as Json
    ).items[0];
    expect(hit).toEqual({
      path: "src/db/pool.ts",
      text_matches: [{ property: "content", fragment: expect.stringContaining("statement_timeout: 5_000") }],
    });
  });

  it("searches commit messages by author and date", async () => {
    const found = (await server.ok("search_commits", {
      query: "author:dave author-date:>2025-09-01 org:acme",
      order: "asc",
    })) as Json;
    expect(
      found.items.map((item: Json) => `${item.repository.full_name}:${item.commit.message.split("\n")[0]}`),
    ).toEqual([
      "acme/docs:Add deployment guide",
      "acme/api:Return 404 for unknown invoice id",
      "acme/webapp:Update React to 18.3 and TypeScript to 5.6",
    ]);
  });

  it("searches users and organizations", async () => {
    const logins = async (query: string, extra: Record<string, unknown> = {}) =>
      ((await server.ok("search_users", { query, ...extra })) as Json).items.map((item: Json) => item.login);
    expect(await logins("type:org")).toEqual(["acme", "globex"]);
    expect(await logins("followers:>150", { sort: "followers" })).toEqual(["alice", "erin"]);
    expect(await logins("globex.io in:email type:user", { sort: "joined", order: "asc" })).toEqual([
      "frank",
      "heidi",
      "grace",
    ]);
    expect(await logins("carol")).toEqual(["carol"]);
  });
});

describe("context", () => {
  it("lists another user's teams and refuses organizations and unknown teams", async () => {
    expect(((await server.ok("get_teams", { user: "erin" })) as Json).organizations).toEqual([
      {
        org: "acme",
        teams: [expect.objectContaining({ slug: "frontend" }), expect.objectContaining({ slug: "docs" })],
      },
    ]);
    expect(await toolError(server, "get_teams", { user: "acme" })).toContain("acme is an organization");
    expect(await toolError(server, "get_team_members", { org: "acme", team_slug: "mobile" })).toContain(
      "teams: frontend, backend, docs, platform",
    );
    expect(await toolError(server, "get_team_members", { org: "alice", team_slug: "x" })).toContain(
      "alice is a user, not an organization",
    );
  });
});
