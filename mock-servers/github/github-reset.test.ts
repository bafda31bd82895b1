import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTROL_TOOLS } from "../kit/server.ts";
import { createGithubState } from "./seed.ts";
import { DOCS, type GithubTestServer, type Json, openGithub, WEBAPP } from "./test-helpers.ts";

let server: GithubTestServer;
beforeEach(async () => {
  server = await openGithub();
});
afterEach(async () => {
  await server.close();
});

const reset = () => server.client.callTool({ name: CONTROL_TOOLS.reset, arguments: {} });

describe("github mock: resets copy a pristine state", () => {
  it("gives the pristine state back after writes to files, branches, issues and repositories", async () => {
    const pristine = await server.dump();
    await server.ok("create_or_update_file", {
      ...DOCS,
      path: "docs/hello.md",
      content: "hello\n",
      message: "Add hello",
      branch: "main",
    });
    await server.ok("create_branch", { ...WEBAPP, branch: "fix/reset" });
    await server.ok("issue_write", { ...WEBAPP, method: "create", title: "After reset this is gone" });
    await server.ok("delete_repository", DOCS);
    expect(await server.dump()).not.toEqual(pristine);

    await reset();
    expect(await server.dump()).toEqual(pristine);
    const list = (await server.ok("list_issues", { ...WEBAPP, state: "OPEN" })) as Json;
    expect(JSON.stringify(list)).not.toContain("After reset this is gone");
    expect((await server.ok("get_file_contents", { ...DOCS, path: "README.md" })) as Json).toHaveProperty("sha");
  });

  it("numbers new objects from the same counter after a reset, so ids repeat exactly", async () => {
    const write = { ...WEBAPP, method: "create", title: "Same twice" };
    const first = (await server.ok("issue_write", write)) as Json;
    await reset();
    expect(await server.ok("issue_write", write)).toEqual(first);
  });

  it("shares the fixture commits between states, frozen, and nothing mutable", () => {
    const a = createGithubState();
    const b = createGithubState();
    const sha = a.repos["acme/webapp"]!.branches[0]!.sha;
    const commit = a.repos["acme/webapp"]!.commits[sha]!;
    expect(b.repos["acme/webapp"]!.commits[sha]).toBe(commit);
    expect(Object.isFrozen(commit) && Object.isFrozen(commit.tree) && Object.isFrozen(commit.parents)).toBe(true);
    expect(() => {
      commit.tree["src/new.ts"] = "0".repeat(40);
    }).toThrow(TypeError);

    expect(b.repos["acme/webapp"]!.commits).not.toBe(a.repos["acme/webapp"]!.commits);
    expect(b.blobs).not.toBe(a.blobs);
    a.repos["acme/webapp"]!.issues[0]!.labels.push("changed");
    a.blobs.extra = "x";
    expect(b.repos["acme/webapp"]!.issues[0]!.labels).not.toContain("changed");
    expect(createGithubState()).toEqual(b);
  });
});
